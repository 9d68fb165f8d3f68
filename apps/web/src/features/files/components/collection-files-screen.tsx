import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  canCreateDownload,
  canCreateFile,
  canDeleteFile,
  canDownloadFile,
  type FileItem,
  type MemberRef,
  type Team,
} from '@raccolta/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { NOT_FOUND_PATH } from '../../../lib/paths';
import { isDateRangeInvalid } from '../../../components/date-range-filter';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { isClientError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSession } from '../../../lib/auth/session/session-context';
import { useDownloads } from '../../../lib/downloads-context';
import { useMemberQuery } from '../../../lib/members/get-member';
import { teamPath } from '../../../lib/teams/team-keys';
import { useTeamActor } from '../../../lib/teams/use-team-actor';
import { fileKeys } from '../../../lib/files/file-keys';
import { useCollectionQuery } from '../../../lib/files/get-collection';
import { useFilesQuery } from '../../../lib/files/list-files';
import { useCollectionReadMutation, useFileReadMutation } from '../../../lib/files/read-marks';
import { useDownloadFile } from '../hooks/use-download-file';
import { useFileFilters } from '../hooks/use-file-filters';
import { useFileUploads } from '../hooks/use-file-uploads';
import { usePreviewHistory } from '../hooks/use-preview-history';
import { hasActiveFilters, toListFilters, type FileFilters } from '../utils/file-filters';
import { DeleteFileDialog } from './delete-file-dialog';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FilePreviewDialog } from './file-preview-dialog';
import type { FileAction } from './file-row-menu';
import { FileDropZone } from './file-drop-zone';
import { FilesBody, type EmptyKind } from './files-body';
import { DuplicatesDialog } from './duplicates-dialog';
import { FilesHeader } from './files-header';
import { UploadPanel } from './upload-panel';

function emptyKindOf(filters: FileFilters): EmptyKind {
  const { view, ...rest } = filters;
  if (hasActiveFilters({ ...rest, view: 'all' })) return 'filtered';
  return view === 'mine' ? 'mine' : 'none';
}

/** Who the creator chip names: from a listed file of theirs, else their member row. */
function useCreatorRef(teamId: string, creator: string | undefined, files: readonly FileItem[]) {
  const listed = files.find((file) => file.uploadedBy === creator)?.uploader;
  const member = useMemberQuery(teamId, creator !== undefined && !listed ? creator : null);
  if (listed) return listed;
  if (member.data) {
    const { userId, nickname, avatarUrl } = member.data;
    return { userId, nickname, avatarUrl } satisfies MemberRef;
  }
  // Not a member any more: the chip says so rather than loading for ever.
  if (member.isError && creator !== undefined) {
    return { userId: creator, nickname: null, avatarUrl: null } satisfies MemberRef;
  }
  return null;
}

/** The files screen of one collection, once its team is known. */
export function CollectionFilesScreen({
  team,
  collectionId,
}: {
  team: Team;
  collectionId: string;
}) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('sm'), { noSsr: true });
  const queryClient = useQueryClient();
  const { idClaims } = useSession();
  const userId = idClaims?.sub ?? null;
  const actor = useTeamActor(team.teamId);
  const collection = useCollectionQuery(team.teamId, collectionId);
  const filterState = useFileFilters();
  const { filters, update, clear } = filterState;
  const rangeInvalid = isDateRangeInvalid({ from: filters.from, to: filters.to });
  const query = useFilesQuery(
    team.teamId,
    collectionId,
    toListFilters(filters, userId),
    !rangeInvalid && (filters.view === 'all' || userId !== null),
  );
  const files = query.data?.pages.flatMap((page) => page.files) ?? [];
  const creator = useCreatorRef(team.teamId, filters.creator, files);
  const uploads = useFileUploads(team.teamId, collectionId);
  const { download, pendingFileId } = useDownloadFile();
  const downloads = useDownloads();
  // Opening the preview marked the file read: the list shows it so once it closes.
  const onPreviewClosed = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: fileKeys.lists(team.teamId, collectionId) });
  }, [queryClient, team.teamId, collectionId]);
  const previewState = usePreviewHistory<FileItem>(onPreviewClosed);
  const preview = previewState.shown;
  const [deleting, setDeleting] = useState<FileItem | null>(null);
  const [showingDuplicates, setShowingDuplicates] = useState(false);
  // A file the integrity check found damaged downloads only after a warning.
  const [damagedDownload, setDamagedDownload] = useState<FileItem | null>(null);
  const requestDownload = (file: FileItem) => {
    if (file.damaged) setDamagedDownload(file);
    else download(file);
  };
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const fileRead = useFileReadMutation();
  const collectionRead = useCollectionReadMutation();
  const readMarkFailed = () =>
    show(t('files.errors.readMark'), 'error', { autoHideDuration: ERROR_TOAST_DURATION_MS });
  useDocumentTitle(collection.data?.name ?? null);

  if (isClientError(collection.error)) return <Navigate to={NOT_FOUND_PATH} replace />;

  const canUpload =
    actor !== null &&
    collection.data !== undefined &&
    canCreateFile({ role: actor.role, actorUserId: actor.userId, collection: collection.data });
  const canDownload = actor !== null && canDownloadFile(actor.role);
  const shown = collection.data;
  const onDownloadAll =
    actor !== null && canCreateDownload(actor.role) && shown !== undefined
      ? () => downloads.request(shown)
      : null;
  const actions: FileAction[] = [];
  if (canDownload) actions.push('download');
  // Read marks are the caller's own: every member who sees the file may set them (spec §6).
  if (actor !== null) actions.push('toggleRead');
  if (actor !== null && canDeleteFile(actor.role)) actions.push('delete');

  const onAction = (action: FileAction, file: FileItem) => {
    if (action === 'download') requestDownload(file);
    else if (action === 'toggleRead')
      fileRead.mutate({ file, read: file.readAt === null }, { onError: readMarkFailed });
    else setDeleting(file);
  };
  const onMarkAllRead =
    actor !== null && (collection.data?.filesCount ?? 0) > 0
      ? () =>
          collectionRead.mutate(
            { collection: { teamId: team.teamId, collectionId }, read: true },
            {
              onSuccess: () => show(t('files.markedAllRead'), 'success'),
              onError: readMarkFailed,
            },
          )
      : null;

  let previewDialog = null;
  if (preview !== null) {
    const index = files.findIndex((file) => file.fileId === preview.fileId);
    previewDialog = (
      <FilePreviewDialog
        file={files[index] ?? preview}
        previous={index > 0 ? (files[index - 1] ?? null) : null}
        next={index >= 0 ? (files[index + 1] ?? null) : null}
        position={index >= 0 ? { index: index + 1, total: files.length } : null}
        canDownload={canDownload}
        downloading={pendingFileId === preview.fileId}
        onNavigate={previewState.move}
        onDownload={requestDownload}
        onClose={previewState.close}
      />
    );
  }

  return (
    <Box
      sx={{
        flex: 1,
        minWidth: 0,
        width: '100%',
        maxWidth: 1200,
        mx: 'auto',
        px: { xs: 2, sm: 3 },
        py: { xs: 2, sm: 3 },
      }}
    >
      <FilesHeader
        backTo={teamPath(team)}
        collection={collection.data}
        filterState={filterState}
        creator={creator}
        refreshing={query.isFetching && !query.isFetchingNextPage}
        onRefresh={() => {
          void collection.refetch();
          void query.refetch();
        }}
        onUpload={canUpload ? uploads.add : null}
        onDownloadAll={onDownloadAll}
        downloadPending={downloads.isRequesting(collectionId)}
        onMarkAllRead={onMarkAllRead}
        markingAllRead={collectionRead.isPending}
        onShowDuplicates={
          (collection.data?.filesCount ?? 0) > 1 ? () => setShowingDuplicates(true) : null
        }
      />
      <UploadPanel uploads={uploads} />
      <FileDropZone enabled={canUpload && wide} onFiles={uploads.add}>
        <FilesBody
          query={query}
          files={files}
          collectionName={collection.data?.name}
          rangeInvalid={rangeInvalid}
          emptyKind={emptyKindOf(filters)}
          canUpload={canUpload}
          onClearFilters={clear}
          wide={wide}
          sort={filters.sort}
          onToggleSort={() => update({ sort: filters.sort === 'desc' ? 'asc' : 'desc' })}
          onOpen={previewState.open}
          onSelectUploader={(creatorId) => update({ view: 'all', creator: creatorId })}
          onSelectGuest={(guest) =>
            update({
              view: 'all',
              creator: undefined,
              link: guest.linkId,
              guest: guest.name ?? undefined,
            })
          }
          actions={actions}
          onAction={onAction}
        />
      </FileDropZone>
      {previewDialog}
      {deleting !== null && <DeleteFileDialog file={deleting} onClose={() => setDeleting(null)} />}
      {showingDuplicates && (
        <DuplicatesDialog
          teamId={team.teamId}
          collectionId={collectionId}
          canDelete={actor !== null && canDeleteFile(actor.role)}
          onClose={() => setShowingDuplicates(false)}
        />
      )}
      <ConfirmDialog
        open={damagedDownload !== null}
        title={t('files.damagedDownload.title')}
        confirmLabel={t('files.damagedDownload.confirm')}
        onConfirm={() => {
          if (damagedDownload !== null) download(damagedDownload);
          setDamagedDownload(null);
        }}
        onClose={() => setDamagedDownload(null)}
      >
        {t('files.damagedDownload.text', { name: damagedDownload?.name ?? '' })}
      </ConfirmDialog>
    </Box>
  );
}
