import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import { useTranslation } from 'react-i18next';
import { FileThumbnail } from '../../../components/file-thumbnail';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { useMyFilesQuery } from '../api/list-my-files';
import { FilesListFrame, UploadedFileText } from './files-list-frame';

/** What the signed-in user has uploaded into this collection, newest first. */
export function MyFilesList({
  teamId,
  collectionId,
  collectionName,
}: {
  teamId: string;
  collectionId: string;
  collectionName: string;
}) {
  const { t } = useTranslation();
  const query = useMyFilesQuery(teamId, collectionId);
  const files = query.data?.pages.flatMap((page) => page.files) ?? [];

  return (
    <FilesListFrame
      title={t('uploadApp.mine.title')}
      loaded={query.data !== undefined}
      error={query.error}
      paused={query.fetchStatus === 'paused'}
      onRetry={() => void query.refetch()}
      empty={files.length === 0}
      emptyText={t('uploadApp.mine.empty')}
      footer={
        <LoadMoreSentinel
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      }
    >
      <List
        dense
        disablePadding
        aria-label={t('uploadApp.mine.listLabel', { name: collectionName })}
      >
        {files.map((file, index) => (
          <ListItem key={file.fileId} divider={index < files.length - 1} sx={{ gap: 1.5, py: 1 }}>
            <FileThumbnail key={file.thumbnailUrl ?? 'none'} file={file} />
            <UploadedFileText file={file} />
          </ListItem>
        ))}
      </List>
    </FilesListFrame>
  );
}
