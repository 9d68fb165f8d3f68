import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { formatDate } from '../../../lib/format-date';
import { FileThumbnail } from '../../../components/file-thumbnail';
import { formatFileSize } from '../../../lib/format-file-size';
import { useMyFilesQuery } from '../api/list-my-files';
import { UploadLoadState } from './upload-page';

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
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const query = useMyFilesQuery(teamId, collectionId);
  const files = query.data?.pages.flatMap((page) => page.files) ?? [];

  let body;
  if (query.data === undefined) {
    body = (
      <Box sx={{ px: 2 }}>
        <UploadLoadState
          error={query.error}
          loadingText={t('uploadApp.mine.loading')}
          onRetry={() => void query.refetch()}
          paused={query.fetchStatus === 'paused'}
        />
      </Box>
    );
  } else if (files.length === 0) {
    body = (
      <Typography color="text.secondary" variant="body2" sx={{ px: 2, py: 2 }}>
        {t('uploadApp.mine.empty')}
      </Typography>
    );
  } else {
    body = (
      <>
        <List
          dense
          disablePadding
          aria-label={t('uploadApp.mine.listLabel', { name: collectionName })}
        >
          {files.map((file, index) => (
            <ListItem key={file.fileId} divider={index < files.length - 1} sx={{ gap: 1.5, py: 1 }}>
              <FileThumbnail key={file.thumbnailUrl ?? 'none'} file={file} />
              <ListItemText
                sx={{ minWidth: 0, my: 0 }}
                primary={file.name}
                secondary={`${formatFileSize(file.size, i18n.language)} · ${formatDate(
                  file.createdAt,
                  i18n.language,
                  true,
                )}`}
                slotProps={{ primary: { noWrap: true, title: file.name } }}
              />
            </ListItem>
          ))}
        </List>
        <LoadMoreSentinel
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      </>
    );
  }

  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId}>
      <Typography
        id={titleId}
        variant="subtitle2"
        component="h2"
        sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider' }}
      >
        {t('uploadApp.mine.title')}
      </Typography>
      {body}
    </Paper>
  );
}
