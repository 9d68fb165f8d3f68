import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { useCallback, useMemo, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SNACKBAR_DURATION_MS,
  SnackbarContext,
  type SnackbarAction,
  type SnackbarApi,
  type SnackbarOptions,
  type SnackbarSeverity,
} from './snackbar-context';

interface Message {
  id: number;
  text: string;
  severity: SnackbarSeverity;
  autoHideDuration: number | null;
  action: SnackbarAction | undefined;
  key: string | undefined;
}

interface SnackbarState {
  shown: Message | null;
  open: boolean;
  /** Messages kept until closed that a newer one covered; the last one comes back first. */
  held: Message[];
}

const EMPTY: SnackbarState = { shown: null, open: false, held: [] };

const staysUntilClosed = (message: Message) => message.autoHideDuration === null;

/**
 * One message at a time at the bottom centre (spec §2); a new message replaces the shown one.
 * A replaced message that stays until closed (news the user has to act on, such as a download
 * that is ready) waits behind the new one and comes back once it closes.
 */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [state, setState] = useState<SnackbarState>(EMPTY);
  const nextId = useRef(0);

  const show = useCallback(
    (text: string, severity: SnackbarSeverity = 'info', options: SnackbarOptions = {}) => {
      nextId.current += 1;
      const message: Message = {
        id: nextId.current,
        text,
        severity,
        autoHideDuration:
          options.autoHideDuration === undefined ? SNACKBAR_DURATION_MS : options.autoHideDuration,
        action: options.action,
        key: options.key,
      };
      setState((previous) => {
        const sameKey = (other: Message) => message.key !== undefined && other.key === message.key;
        const held = previous.held.filter((other) => !sameKey(other));
        const covered = previous.shown;
        if (previous.open && covered !== null && staysUntilClosed(covered) && !sameKey(covered)) {
          held.push(covered);
        }
        return { shown: message, open: true, held };
      });
    },
    [],
  );

  const handleClose = useCallback(
    (_event?: SyntheticEvent | Event, reason?: SnackbarCloseReason) => {
      // A click elsewhere on the page should not dismiss an error the user has not read yet.
      if (reason === 'clickaway') return;
      setState((previous) => ({ ...previous, open: false }));
    },
    [],
  );

  // Once the closed message has left the screen, the one it covered comes back.
  const handleExited = useCallback(() => {
    setState((previous) => {
      const next = previous.held.at(-1);
      if (previous.open || next === undefined) return previous;
      return { shown: next, open: true, held: previous.held.slice(0, -1) };
    });
  }, []);

  const api = useMemo<SnackbarApi>(() => ({ show }), [show]);
  const message = state.shown;
  const action = message?.action;

  return (
    <SnackbarContext value={api}>
      {children}
      <Snackbar
        // A new key restarts the auto-hide timer when a message replaces another.
        key={message?.id}
        open={state.open && message !== null}
        autoHideDuration={message?.autoHideDuration ?? null}
        onClose={handleClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        slotProps={{ transition: { onExited: handleExited } }}
      >
        <Alert
          onClose={handleClose}
          closeText={t('actions.close')}
          severity={message?.severity ?? 'info'}
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
                    handleClose();
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
                  onClick={handleClose}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </>
            )
          }
        >
          {message?.text}
        </Alert>
      </Snackbar>
    </SnackbarContext>
  );
}
