import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import {
  canCreateCollection,
  canCreateDownload,
  canDeleteCollection,
  canManageUploadLinks,
  canSendReminder,
  canUpdateCollection,
  REFETCH_TOAST_MIN_MS,
  type Collection,
  type MemberActionInput,
  type Team,
} from '@raccolta/contracts';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isDateRangeInvalid } from '../../../components/date-range-filter';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { useErrorText } from '../../../lib/error-text';
import { useDownloads } from '../../../lib/downloads-context';
import { useCollectionReadMutation } from '../../../lib/files/read-marks';
import { collectionPagePath } from '../../../lib/collections/collection-keys';
import { useCollectionsQuery } from '../../../lib/collections/list-collections';
import { useCollectionFilters } from '../hooks/use-collection-filters';
import { useMemberNickname } from '../hooks/use-member-nickname';
import { useShownAtLeast } from '../hooks/use-shown-at-least';
import { distinctCollections } from '../utils/distinct-collections';
import { isUnread } from '../utils/unread';
import { mayRemind } from '../utils/deadline';
import { useNow } from '../../../lib/use-now';
import {
  COLLECTION_TABS,
  DEFAULT_COLLECTION_FILTERS,
  hasActiveFilters,
  withCreator,
  withoutFilters,
  type CollectionTab,
} from '../../../lib/collections/collection-filters';
import type { CollectionAction } from './collection-menu';
import { useRemindCollectionMutation } from '../api/remind-collection';
import { isApiError } from '../../../lib/api-client';
import { CollectionRow } from './collection-row';
import { CollectionsEmptyState } from './collections-empty-state';
import { CollectionsFilterBar, CollectionsTitleBar } from './collections-header';
import { CreateCollectionDialog } from './create-collection-dialog';
import { DeleteCollectionDialog } from './delete-collection-dialog';
import { EditCollectionDialog } from './edit-collection-dialog';
import { RefreshingToast } from './refreshing-toast';
import { UploadLinksDialog } from './upload-links-dialog';

type CollectionDialog =
  { kind: 'create' } | { kind: 'edit' | 'delete' | 'links'; collection: Collection };

export interface CollectionsViewProps {
  team: Team;
  /** The team reference of the address (alias or id): the rows link under it. */
  teamRef: string;
  /** The signed-in user in this team; null while their membership loads. */
  actor: MemberActionInput['actor'] | null;
}

/** The team dashboard's collections screen (spec §2), its filters kept in the address. */
export function CollectionsView({ team, teamRef, actor }: CollectionsViewProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const titleId = useId();
  const tabsId = useId();
  const { filters, setFilters } = useCollectionFilters();
  // The API refuses from after to; the fields say why and the list waits for a valid range.
  const rangeInvalid = isDateRangeInvalid({ from: filters.from, to: filters.to });
  const query = useCollectionsQuery(team.teamId, filters, !rangeInvalid);
  const refreshing = useShownAtLeast(query.isRefetching, REFETCH_TOAST_MIN_MS);
  const [dialog, setDialog] = useState<CollectionDialog | null>(null);
  const downloads = useDownloads();
  const collectionRead = useCollectionReadMutation();
  const remind = useRemindCollectionMutation();
  const now = useNow();
  const { show } = useSnackbar();

  const collections = distinctCollections(query.data?.pages ?? []);
  const creatorName = useMemberNickname(team.teamId, filters.member, collections);
  const taggedName = useMemberNickname(team.teamId, filters.tagged, collections);
  const filtered = hasActiveFilters(filters);
  const canCreate =
    actor !== null && canCreateCollection({ role: actor.role, teamMode: team.mode });
  const openCreate = () => setDialog({ kind: 'create' });
  const actionsFor = (collection: Collection): CollectionAction[] => {
    if (actor === null) return [];
    const actions: CollectionAction[] = [];
    // An empty collection has nothing to download: the entry is left out (the row says 0 files).
    if (canCreateDownload(actor.role) && collection.filesCount > 0) actions.push('download');
    if (canUpdateCollection({ role: actor.role, actorUserId: actor.userId, collection })) {
      actions.push('edit');
    }
    if (canManageUploadLinks({ role: actor.role, actorUserId: actor.userId, collection })) {
      actions.push('links');
    }
    // Read marks are the member's own: anyone who sees the collection may set them.
    actions.push('toggleRead');
    if (canSendReminder(actor.role) && mayRemind(collection, now)) actions.push('remind');
    if (canDeleteCollection(actor.role)) actions.push('delete');
    return actions;
  };
  const onAction = (action: CollectionAction, target: Collection) => {
    if (action === 'download') downloads.request(target);
    else if (action === 'remind')
      remind.mutate(target, {
        onSuccess: ({ sent }) =>
          sent === 0
            ? show(t('collections.remind.nobody'), 'info')
            : show(t('collections.remind.sent', { count: sent }), 'success'),
        onError: (error) =>
          show(
            isApiError(error) && error.errorCode === 'tooManyRequests'
              ? t('collections.remind.tooMany')
              : errorText(error),
            'error',
            { autoHideDuration: ERROR_TOAST_DURATION_MS },
          ),
      });
    else if (action === 'toggleRead')
      collectionRead.mutate(
        { collection: target, read: isUnread(target) },
        {
          onError: () =>
            show(t('files.errors.readMark'), 'error', {
              autoHideDuration: ERROR_TOAST_DURATION_MS,
            }),
        },
      );
    else setDialog({ kind: action, collection: target });
  };

  let body: ReactNode;
  let emptyOffersCreate = false;
  if (rangeInvalid) {
    body = <Alert severity="warning">{t('validation.filterStartEndDateInvalid')}</Alert>;
  } else if (query.isPending) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography variant="body2">{t('collections.loading')}</Typography>
      </Stack>
    );
  } else if (query.isError && collections.length === 0) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('actions.retry')}
          </Button>
        }
      >
        {errorText(query.error)}
      </Alert>
    );
  } else if (collections.length === 0) {
    emptyOffersCreate = !filtered && canCreate;
    body = (
      <CollectionsEmptyState
        filtered={filtered}
        canCreate={canCreate}
        onClearFilters={() => setFilters(withoutFilters(filters))}
        onCreate={openCreate}
      />
    );
  } else {
    body = (
      <>
        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          <List disablePadding aria-label={t('collections.listLabel')}>
            {collections.map((collection, index) => (
              <CollectionRow
                key={collection.collectionId}
                collection={collection}
                href={collectionPagePath(teamRef, collection.collectionId)}
                actions={actionsFor(collection)}
                taggedFilter={filters.tagged}
                divider={index < collections.length - 1}
                onCreator={(userId) => setFilters(withCreator(filters, userId))}
                onTag={(userId) => setFilters({ ...filters, tagged: userId })}
                onAction={onAction}
              />
            ))}
          </List>
        </Paper>
        {query.isFetchNextPageError && (
          <Alert
            severity="error"
            sx={{ mt: 1.5 }}
            action={
              <Button color="inherit" size="small" onClick={() => void query.fetchNextPage()}>
                {t('actions.retry')}
              </Button>
            }
          >
            {errorText(query.error)}
          </Alert>
        )}
        <LoadMoreSentinel
          // After a failed page the alert's retry is the way on: the sentinel would loop.
          hasMore={query.hasNextPage && !query.isFetchNextPageError}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      </>
    );
  }

  return (
    // A column, so `order` can draw the "New collection" bar after the list while the page's
    // order has it before: Tab reaches it without crossing every row.
    <Box
      component="section"
      aria-labelledby={titleId}
      sx={{ display: 'flex', flexDirection: 'column' }}
    >
      <CollectionsTitleBar
        titleId={titleId}
        filters={filters}
        refreshDisabled={rangeInvalid || query.isFetching}
        onChange={setFilters}
        onReset={() => setFilters(DEFAULT_COLLECTION_FILTERS)}
        onRefresh={() => void query.refetch()}
      />
      <Tabs
        value={filters.tab}
        onChange={(_event, tab: CollectionTab) => setFilters({ ...filters, tab })}
        aria-label={t('collections.views.label')}
        variant="fullWidth"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider', maxWidth: { sm: 420 } }}
      >
        {COLLECTION_TABS.map((tab) => (
          <Tab
            key={tab}
            value={tab}
            label={t(`collections.views.${tab}`)}
            id={`${tabsId}-${tab}`}
            aria-controls={`${tabsId}-panel`}
          />
        ))}
      </Tabs>
      {canCreate && !filtered && !emptyOffersCreate && (
        // Sticky: the button stays at hand at the bottom of the screen while the list scrolls.
        <Box
          sx={{
            order: 1,
            position: 'sticky',
            bottom: 0,
            zIndex: 2,
            mt: 2,
            py: 1.5,
            display: 'flex',
            justifyContent: 'flex-end',
            bgcolor: 'background.default',
            borderTop: 1,
            borderColor: 'divider',
          }}
        >
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={openCreate}
            sx={{ width: { xs: '100%', sm: 'auto' } }}
          >
            {t('collections.new')}
          </Button>
        </Box>
      )}
      <div role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${filters.tab}`}>
        <CollectionsFilterBar
          filters={filters}
          creatorName={creatorName}
          taggedName={taggedName}
          onChange={setFilters}
        />
        {body}
      </div>
      <RefreshingToast open={refreshing} />
      {dialog?.kind === 'create' && actor !== null && (
        <CreateCollectionDialog
          teamId={team.teamId}
          role={actor.role}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'links' && (
        <UploadLinksDialog collection={dialog.collection} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteCollectionDialog collection={dialog.collection} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'edit' && actor !== null && (
        <EditCollectionDialog
          collection={dialog.collection}
          actor={actor}
          onClose={() => setDialog(null)}
        />
      )}
    </Box>
  );
}
