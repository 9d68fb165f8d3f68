import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { useNow } from '../../../lib/use-now';
import { useDeleteGuestFileMutation, useGuestFilesQuery } from '../hooks/use-guest-files';
import { FilesListFrame, UploadedFileText } from './files-list-frame';

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
  const { t } = useTranslation();
  const errorText = useErrorText();
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
  return (
    <FilesListFrame
      title={t('uploadApp.guest.mineTitle')}
      loaded={query.data !== undefined}
      error={query.error}
      paused={query.fetchStatus === 'paused'}
      onRetry={() => void query.refetch()}
      empty={files.length === 0}
      emptyText={t('uploadApp.guest.mineEmpty')}
      notice={
        remove.error !== null &&
        !closed && (
          <Alert severity="error" sx={{ m: 1 }}>
            {errorText(remove.error)}
          </Alert>
        )
      }
      footer={
        <Typography color="text.secondary" variant="caption" component="p" sx={{ px: 2, pb: 1.5 }}>
          {t('uploadApp.guest.deleteHint')}
        </Typography>
      }
    >
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
              <UploadedFileText file={file} />
            </ListItem>
          );
        })}
      </List>
    </FilesListFrame>
  );
}
