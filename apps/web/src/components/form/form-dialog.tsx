import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../lib/error-text';

/**
 * A dialog holding one form (react-hook-form's `handleSubmit` as `onSubmit`): the title names the
 * dialog, the fields stand in a column, a server error shows under them, and Cancel and the submit
 * button close it. While `pending`, Cancel, Escape and a click beside it do nothing and the submit
 * button shows its progress.
 */
export function FormDialog({
  title,
  children,
  onSubmit,
  onClose,
  pending,
  error = null,
  submitLabel,
  submitDisabled = false,
  maxWidth = 'sm',
  closeOnBackdropClick = false,
}: {
  title: ReactNode;
  /** The fields. */
  children: ReactNode;
  onSubmit: (event: SyntheticEvent<HTMLFormElement>) => Promise<void>;
  onClose: () => void;
  pending: boolean;
  /** The last submission's error, shown in the dialog; null or left out when it is shown elsewhere. */
  error?: unknown;
  /** The submit button's text; Save when left out. */
  submitLabel?: ReactNode;
  submitDisabled?: boolean;
  maxWidth?: DialogProps['maxWidth'];
  /** Whether a click beside the dialog closes it: not for forms whose typing it would throw away. */
  closeOnBackdropClick?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        if (pending || (reason === 'backdropClick' && !closeOnBackdropClick)) return;
        onClose();
      }}
      aria-labelledby={titleId}
      maxWidth={maxWidth}
      fullWidth
    >
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
            {error !== null && error !== undefined && (
              <Alert severity="error">{errorText(error)}</Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={submitDisabled} loading={pending}>
            {submitLabel ?? t('actions.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
