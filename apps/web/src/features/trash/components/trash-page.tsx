import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import RestoreFromTrash from '@mui/icons-material/RestoreFromTrash';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { canManageTrash, type Team, type TrashItem } from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { NOT_FOUND_PATH } from '../../../lib/paths';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { PageLoadState } from '../../../components/page-load-state';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { ApiError, isClientError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { formatDate } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { formatFileSize } from '../../../lib/format-file-size';
import { useTeamActor } from '../../../lib/teams/use-team-actor';
import { useTeamQuery } from '../../../lib/teams/get-team';
import { usePurgeMutation, useRestoreMutation, useTrashQuery } from '../api/trash-api';

function TrashRow({
  item,
  selected,
  onToggle,
  onRestore,
  busy,
}: {
  item: TrashItem;
  selected: boolean;
  onToggle: () => void;
  onRestore: () => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation();
  const size = formatFileSize(item.size, i18n.language);
  const what =
    item.kind === 'collection'
      ? t('trash.collectionFiles', { count: item.fileCount, size })
      : t('trash.fileFrom', { collection: item.collectionName, size });
  const deletedAt = formatDate(item.deletedAt, i18n.language, true);
  const deleter = item.deletedBy.nickname;
  return (
    <Stack
      direction="row"
      sx={{ px: { xs: 1, sm: 2 }, py: 1.5, alignItems: 'flex-start', flexWrap: 'wrap', gap: 1 }}
    >
      <Checkbox
        checked={selected}
        onChange={onToggle}
        slotProps={{ input: { 'aria-label': t('trash.select', { name: item.name }) } }}
        sx={{ mt: -0.5 }}
      />
      <Box sx={{ color: 'text.secondary', pt: 0.5 }} aria-hidden>
        {item.kind === 'collection' ? <FolderOutlined /> : <InsertDriveFileOutlined />}
      </Box>
      <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{item.name}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {what}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {deleter === null
            ? t('trash.deletedByUnknown', { date: deletedAt })
            : t('trash.deletedBy', { name: deleter, date: deletedAt })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('trash.purgeAt', { date: formatDate(item.purgeAt, i18n.language) })}
        </Typography>
      </Box>
      <Button
        size="small"
        startIcon={<RestoreFromTrash />}
        onClick={onRestore}
        disabled={busy}
        aria-label={t('trash.restoreItem', { name: item.name })}
        sx={{ ml: 'auto', alignSelf: 'center' }}
      >
        {t('trash.restore')}
      </Button>
    </Stack>
  );
}

function TrashView({ team, teamRef }: { team: Team; teamRef: string }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const { show } = useSnackbar();
  const query = useTrashQuery(team.teamId);
  const restore = useRestoreMutation();
  const purge = usePurgeMutation();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<'empty' | 'purge' | null>(null);
  useDocumentTitle(t('trash.documentTitle', { team: team.name }));

  const pages = query.data?.pages ?? [];
  const items = pages.flatMap((page) => page.items);
  const first = pages[0];
  const busy = restore.isPending || purge.isPending;
  const chosen = items.filter((item) => selected.has(item.itemId)).map((item) => item.itemId);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.statusCode === 404) {
      show(t('trash.gone'), 'warning', { autoHideDuration: ERROR_TOAST_DURATION_MS });
      void query.refetch();
    } else show(errorText(error), 'error', { autoHideDuration: ERROR_TOAST_DURATION_MS });
  };
  const doRestore = (itemIds: string[]) =>
    restore.mutate(
      { teamId: team.teamId, itemIds },
      {
        onSuccess: (result) => {
          setSelected(new Set());
          const files = t('trash.filesCount', { count: result.files });
          show(
            result.collections > 0
              ? t('trash.restoredCollections', { count: result.collections, files })
              : t('trash.restored', { count: result.files }),
            'success',
          );
        },
        onError: failed,
      },
    );
  const doPurge = () =>
    purge.mutate(
      { teamId: team.teamId, ...(confirm === 'purge' ? { itemIds: chosen } : {}) },
      {
        onSuccess: (result) => {
          setSelected(new Set());
          setConfirm(null);
          show(
            t('trash.purged', { files: t('trash.filesCount', { count: result.files }) }),
            'success',
          );
        },
        onError: (error) => {
          setConfirm(null);
          failed(error);
        },
      },
    );
  const toggle = (itemId: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(itemId)) next.delete(itemId);
      else next.add(itemId);
      return next;
    });
  const allSelected = items.length > 0 && chosen.length === items.length;

  let body;
  if (first === undefined) {
    body = (
      <PageLoadState
        error={query.error}
        loadingText={t('trash.loading')}
        onRetry={() => void query.refetch()}
      />
    );
  } else if (items.length === 0) {
    body = (
      <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
        <Typography color="text.secondary">{t('trash.empty')}</Typography>
      </Paper>
    );
  } else {
    body = (
      <>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={allSelected}
                indeterminate={chosen.length > 0 && !allSelected}
                onChange={() =>
                  setSelected(allSelected ? new Set() : new Set(items.map((i) => i.itemId)))
                }
              />
            }
            label={
              chosen.length > 0
                ? t('trash.selected', { count: chosen.length })
                : t('trash.selectAll')
            }
          />
          <Box sx={{ flexGrow: 1 }} />
          <Button
            variant="contained"
            startIcon={<RestoreFromTrash />}
            disabled={chosen.length === 0 || busy}
            onClick={() => doRestore(chosen)}
          >
            {t('trash.restoreSelected')}
          </Button>
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteForeverOutlined />}
            disabled={chosen.length === 0 || busy}
            onClick={() => setConfirm('purge')}
          >
            {t('trash.deleteSelected')}
          </Button>
        </Stack>
        <Paper variant="outlined">
          {items.map((item, index) => (
            <Box key={item.itemId}>
              {index > 0 && <Divider />}
              <TrashRow
                item={item}
                selected={selected.has(item.itemId)}
                onToggle={() => toggle(item.itemId)}
                onRestore={() => doRestore([item.itemId])}
                busy={busy}
              />
            </Box>
          ))}
        </Paper>
        <LoadMoreSentinel
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      </>
    );
  }

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, sm: 4 }, px: { xs: 2, sm: 3 } }}>
      <Button
        component={RouterLink}
        to={`/teams/${encodeURIComponent(teamRef)}`}
        startIcon={<ArrowBack />}
        sx={{ ml: -1, mb: 1, textAlign: 'left', overflowWrap: 'anywhere' }}
      >
        {t('trash.backToTeam', { name: team.name })}
      </Button>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {t('trash.title')}
        </Typography>
        {first !== undefined && first.totals.items > 0 && (
          <Button
            color="error"
            startIcon={<DeleteForeverOutlined />}
            disabled={busy}
            onClick={() => setConfirm('empty')}
          >
            {t('trash.emptyTrash')}
          </Button>
        )}
      </Stack>
      {first !== undefined && (
        <Stack spacing={0.5} sx={{ mb: 2 }}>
          <Typography color="text.secondary">
            {t('trash.intro', { count: first.trashDays })}
          </Typography>
          {first.totals.items > 0 && (
            <Typography color="text.secondary" sx={{ fontWeight: 600 }}>
              {t('trash.totals', {
                count: first.totals.items,
                size: formatFileSize(first.totals.bytes, i18n.language),
              })}
            </Typography>
          )}
        </Stack>
      )}
      {body}
      <ConfirmDialog
        open={confirm !== null}
        title={
          confirm === 'purge'
            ? t('trash.confirmPurgeTitle', { count: chosen.length })
            : t('trash.confirmEmptyTitle')
        }
        confirmLabel={t('trash.confirmDelete')}
        destructive
        pending={purge.isPending}
        onConfirm={doPurge}
        onClose={() => setConfirm(null)}
      >
        {confirm === 'purge' ? t('trash.confirmPurgeText') : t('trash.confirmEmptyText')}
      </ConfirmDialog>
    </Container>
  );
}

/** /teams/{teamRef}/trash: the team's deleted files and collections (owners and admins). */
export function TrashPage() {
  const { t } = useTranslation();
  const { teamRef = '' } = useParams();
  const team = useTeamQuery(teamRef);
  const actor = useTeamActor(team.data?.teamId ?? null);
  if (isClientError(team.error)) return <Navigate to={NOT_FOUND_PATH} replace />;
  if (team.data === undefined || actor === null) {
    return (
      <PageLoadState
        error={team.error}
        loadingText={t('trash.loading')}
        onRetry={() => void team.refetch()}
      />
    );
  }
  if (!canManageTrash(actor.role)) {
    return (
      <Container maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }}>
        <Alert severity="info">{t('trash.forbidden')}</Alert>
      </Container>
    );
  }
  return <TrashView team={team.data} teamRef={teamRef} />;
}
