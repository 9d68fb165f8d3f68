import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { formatDate } from '../../../lib/format-date';
import { formatFileSize } from '../../../lib/format-file-size';
import { useNow } from '../../../lib/use-now';
import { useDeleteGuestFileMutation, useGuestFilesQuery } from '../hooks/use-guest-files';
import { UploadLoadState } from './upload-page';

/**
 * What this browser's guest sent through the link, newest first; each deletable for an hour
 * after it arrived. Never anyone else's files (the API lists the guest's own only).
 */
export function GuestFilesList({
  linkToken,
  onClosed,
  onPasswordNeeded,
}: {
  linkToken: string;
  /** The API said the link is no longer open. */
  onClosed: () => void;
  /** Opening the link again for a new guest token needs its password. */
  onPasswordNeeded: () => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const titleId = useId();
  const now = useNow(30_000);
  const query = useGuestFilesQuery(linkToken);
  const remove = useDeleteGuestFileMutation(linkToken);
  const closed = [query.error, remove.error].some(
    (error) => isApiError(error) && error.errorCode === 'uploadLinkNotFound',
  );
  useEffect(() => {
    if (closed) onClosed();
  }, [closed, onClosed]);
  const locked = [query.error, remove.error].some(
    (error) => isApiError(error) && error.errorCode === 'uploadLinkPasswordRequired',
  );
  useEffect(() => {
    if (locked) onPasswordNeeded();
  }, [locked, onPasswordNeeded]);

  const files = query.data?.files ?? [];
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
        {t('uploadApp.guest.mineEmpty')}
      </Typography>
    );
  } else {
    body = (
      <List dense disablePadding aria-label={t('uploadApp.guest.mineTitle')}>
        {files.map((file, index) => {
          const deletable = Date.parse(file.deletableUntil) > now;
          const label = t('uploadApp.guest.deleteFile', { name: file.name });
          return (
            <ListItem
              key={file.fileId}
              divider={index < files.length - 1}
              sx={{ gap: 1, py: 1 }}
              secondaryAction={
                deletable ? (
                  <Tooltip title={label}>
                    <span>
                      <IconButton
                        edge="end"
                        aria-label={label}
                        disabled={remove.isPending}
                        onClick={() => remove.mutate(file.fileId)}
                      >
                        <DeleteOutline />
                      </IconButton>
                    </span>
                  </Tooltip>
                ) : undefined
              }
            >
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
          );
        })}
      </List>
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
        {t('uploadApp.guest.mineTitle')}
      </Typography>
      {remove.error !== null && !closed && (
        <Alert severity="error" sx={{ m: 1 }}>
          {errorText(remove.error)}
        </Alert>
      )}
      {body}
      {files.length > 0 && (
        <Typography color="text.secondary" variant="caption" component="p" sx={{ px: 2, pb: 1.5 }}>
          {t('uploadApp.guest.deleteHint')}
        </Typography>
      )}
    </Paper>
  );
}
