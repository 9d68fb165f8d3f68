import Alert from '@mui/material/Alert';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { useCallback, useMemo, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SNACKBAR_DURATION_MS,
  SnackbarContext,
  type SnackbarApi,
  type SnackbarOptions,
  type SnackbarSeverity,
} from './snackbar-context';

interface Message {
  id: number;
  text: string;
  severity: SnackbarSeverity;
  autoHideDuration: number | null;
}

/** One message at a time at the bottom centre (spec §2); a new message replaces the shown one. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState<Message | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback(
    (text: string, severity: SnackbarSeverity = 'info', options: SnackbarOptions = {}) => {
      setMessage((previous) => ({
        id: (previous?.id ?? 0) + 1,
        text,
        severity,
        autoHideDuration:
          options.autoHideDuration === undefined ? SNACKBAR_DURATION_MS : options.autoHideDuration,
      }));
      setOpen(true);
    },
    [],
  );

  const handleClose = useCallback(
    (_event?: SyntheticEvent | Event, reason?: SnackbarCloseReason) => {
      // A click elsewhere on the page should not dismiss an error the user has not read yet.
      if (reason === 'clickaway') return;
      setOpen(false);
    },
    [],
  );

  const api = useMemo<SnackbarApi>(() => ({ show }), [show]);

  return (
    <SnackbarContext value={api}>
      {children}
      <Snackbar
        // A new key restarts the auto-hide timer when a message replaces another.
        key={message?.id}
        open={open && message !== null}
        autoHideDuration={message?.autoHideDuration ?? null}
        onClose={handleClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          onClose={handleClose}
          closeText={t('actions.close')}
          severity={message?.severity ?? 'info'}
          variant="filled"
          sx={{ width: '100%' }}
        >
          {message?.text}
        </Alert>
      </Snackbar>
    </SnackbarContext>
  );
}
