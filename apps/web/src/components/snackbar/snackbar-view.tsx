import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import type { SnackbarAction, SnackbarSeverity } from './snackbar-context';

export type { SnackbarCloseReason };

export interface Message {
  id: number;
  text: string;
  severity: SnackbarSeverity;
  autoHideDuration: number | null;
  action: SnackbarAction | undefined;
  key: string | undefined;
}

/** The bar at the bottom centre with the shown message (state in SnackbarProvider). */
export default function SnackbarView({
  message,
  open,
  onClose,
  onExited,
}: {
  message: Message;
  open: boolean;
  onClose: (reason?: SnackbarCloseReason) => void;
  onExited: () => void;
}) {
  const { t } = useTranslation();
  const { action } = message;
  const close = () => onClose();
  return (
    <Snackbar
      // A new key restarts the auto-hide timer when a message replaces another.
      key={message.id}
      open={open}
      autoHideDuration={message.autoHideDuration}
      onClose={(_event, reason) => onClose(reason)}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      slotProps={{ transition: { onExited } }}
    >
      <Alert
        onClose={close}
        closeText={t('actions.close')}
        severity={message.severity}
        variant="filled"
        sx={{ width: '100%' }}
        // With an action, Alert leaves out its own close button: both are drawn here.
        action={
          action && (
            <>
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  close();
                  action.onClick();
                }}
                sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}
              >
                {action.label}
              </Button>
              <IconButton
                size="small"
                color="inherit"
                aria-label={t('actions.close')}
                title={t('actions.close')}
                onClick={close}
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            </>
          )
        }
      >
        {message.text}
      </Alert>
    </Snackbar>
  );
}
