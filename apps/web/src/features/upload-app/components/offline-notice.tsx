import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { useOnlineStatus } from '../hooks/use-online-status';

/** Shown while the browser is offline; the uploads pause and continue when it is back. */
export function OfflineNotice() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <Alert
      severity="warning"
      icon={<CloudOffOutlined fontSize="inherit" />}
      role="status"
      square
      sx={{ borderBottom: 1, borderColor: 'divider' }}
    >
      {t('uploadApp.offline')}
    </Alert>
  );
}
