import Box from '@mui/material/Box';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format-date';
import { formatFileSize } from '../../../lib/format-file-size';
import { UploadLoadState } from './upload-page';

/**
 * The frame of a list of one's own uploads in the upload app (a member's in a collection, a
 * guest's through a link): a titled section that shows the loading state with its retry until the
 * first page is in, then the empty text or the rows.
 */
export function FilesListFrame({
  title,
  loaded,
  error,
  paused,
  onRetry,
  empty,
  emptyText,
  notice,
  footer,
  children,
}: {
  title: string;
  /** The first page has come. */
  loaded: boolean;
  error: unknown;
  /** Waiting for a connection rather than for the server. */
  paused: boolean;
  onRetry: () => void;
  empty: boolean;
  emptyText: string;
  /** Shown under the title, e.g. why an action failed. */
  notice?: ReactNode;
  /** Shown under the rows when there are some. */
  footer?: ReactNode;
  /** The rows. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  let body;
  if (!loaded) {
    body = (
      <Box sx={{ px: 2 }}>
        <UploadLoadState
          error={error}
          loadingText={t('uploadApp.mine.loading')}
          onRetry={onRetry}
          paused={paused}
        />
      </Box>
    );
  } else if (empty) {
    body = (
      <Typography color="text.secondary" variant="body2" sx={{ px: 2, py: 2 }}>
        {emptyText}
      </Typography>
    );
  } else {
    body = (
      <>
        {children}
        {footer}
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
        {title}
      </Typography>
      {notice}
      {body}
    </Paper>
  );
}

/** A row's text: the file's name on one line, its size and when it came under it. */
export function UploadedFileText({
  file,
}: {
  file: { name: string; size: number; createdAt: string };
}) {
  const { i18n } = useTranslation();
  return (
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
  );
}
