import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';

/**
 * "Refreshing…" while a list is fetched again (spec §2). Its own snackbar because it must close
 * when the fetch ends rather than after a fixed time; a status, not an alert, for screen readers.
 */
export function RefreshingToast({ open }: { open: boolean }) {
  const { t } = useTranslation();
  return (
    <Snackbar open={open} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert severity="info" variant="filled" role="status" sx={{ width: '100%' }}>
        {t('collections.refreshing')}
      </Alert>
    </Snackbar>
  );
}
