import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { useSession } from '../../../lib/auth/session/session-context';
import { collectionKeys, fileKeys } from '../../../lib/files/file-keys';
import { getDuplicates } from '../../../lib/files/lookup-files';
import { formatDate } from '../../../lib/format-date';
import { formatFileSize } from '../../../lib/format-file-size';
import { deleteFile } from '../api/delete-file';

/**
 * The collection's files that hold the same content as another of them, by group, the oldest
 * first (the one kept). Those who may delete files delete the extras in one go, after a
 * confirmation, through the ordinary delete (to the trash). The API lists at most
 * DUPLICATE_GROUPS_MAX groups; when there are more it says so, and so does the dialog.
 */
export function DuplicatesDialog({
  teamId,
  collectionId,
  canDelete,
  onClose,
}: {
  teamId: string;
  collectionId: string;
  canDelete: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { request } = useSession();
  const queryClient = useQueryClient();
  const { show } = useSnackbar();
  const theme = useTheme();
  const phone = !useMediaQuery(theme.breakpoints.up('sm'), { noSsr: true });
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const query = useQuery({
    queryKey: [...fileKeys.lists(teamId, collectionId), 'duplicates'],
    queryFn: ({ signal }) => getDuplicates(request, teamId, collectionId, signal),
  });
  const groups = query.data?.groups ?? [];
  const extras = groups.flatMap((group) => group.files.slice(1));
  const removal = useMutation({
    mutationFn: async () => {
      for (const file of extras) await deleteFile(request, file);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: collectionKeys.all(teamId) });
      void queryClient.invalidateQueries({ queryKey: fileKeys.lists(teamId, collectionId) });
    },
    onSuccess: () => {
      setConfirming(false);
      show(t('files.duplicates.deleted', { count: extras.length }), 'success');
    },
    onError: () => {
      setConfirming(false);
      show(t('files.duplicates.deleteFailed'), 'error', {
        autoHideDuration: ERROR_TOAST_DURATION_MS,
      });
    },
  });

  let body;
  if (query.isPending) body = <CircularProgress aria-label={t('common.loading')} />;
  else if (query.isError)
    body = <Typography color="error">{t('files.duplicates.loadFailed')}</Typography>;
  else if (groups.length === 0)
    body = <Typography color="text.secondary">{t('files.duplicates.none')}</Typography>;
  else
    body = (
      <List dense disablePadding>
        {groups.map((group, index) => (
          <li key={group.sha256}>
            <List dense disablePadding>
              <ListSubheader disableGutters sx={{ bgcolor: 'inherit' }}>
                {t('files.duplicates.group', { number: index + 1, count: group.files.length })}
              </ListSubheader>
              {group.files.map((file, position) => (
                <ListItem key={file.fileId} disableGutters divider>
                  <ListItemText
                    primary={file.name}
                    secondary={[
                      position === 0 ? t('files.duplicates.kept') : t('files.duplicates.extra'),
                      file.uploader.nickname ?? t('files.formerMember'),
                      formatDate(file.createdAt, i18n.language, true),
                      formatFileSize(file.size, i18n.language),
                    ].join(' · ')}
                    slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                </ListItem>
              ))}
            </List>
          </li>
        ))}
      </List>
    );

  return (
    <>
      <Dialog open onClose={onClose} aria-labelledby={titleId} fullScreen={phone} fullWidth>
        <DialogTitle id={titleId}>{t('files.duplicates.title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('files.duplicates.intro')}
          </Typography>
          {query.data?.more && (
            <Alert severity="info" sx={{ mb: 1 }}>
              {t('files.duplicates.more', { groups: groups.length })}
            </Alert>
          )}
          {body}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('files.duplicates.close')}</Button>
          {canDelete && extras.length > 0 && (
            <Button color="error" variant="contained" onClick={() => setConfirming(true)}>
              {t('files.duplicates.deleteExtras')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        destructive
        pending={removal.isPending}
        title={t('files.duplicates.confirmTitle', { count: extras.length })}
        confirmLabel={t('files.duplicates.confirm')}
        onConfirm={() => removal.mutate()}
        onClose={() => setConfirming(false)}
      >
        {t('files.duplicates.confirmText')}
      </ConfirmDialog>
    </>
  );
}
