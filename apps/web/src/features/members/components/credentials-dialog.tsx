import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { Credentials } from '@raccolta/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar';
// The path module alone: the upload app's screens build on this feature.
import { UPLOAD_SIGN_IN_PATH } from '../../../lib/upload-paths';

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const copyLabel = t('members.credentials.copy', { field: label });

  const copy = () => {
    // The Clipboard API exists only in secure contexts; elsewhere the text can still be selected.
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (clipboard === undefined) {
      show(t('members.credentials.copyFailed'), 'error');
      return;
    }
    clipboard.writeText(value).then(
      () => show(t('members.credentials.copied', { field: label }), 'success'),
      () => show(t('members.credentials.copyFailed'), 'error'),
    );
  };

  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      slotProps={{
        htmlInput: {
          readOnly: true,
          spellCheck: false,
          // Monospace: a generated password mixes characters that look alike (l, 1, I, O, 0).
          sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copyLabel}>
                <IconButton edge="end" aria-label={copyLabel} onClick={copy}>
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * An internal member's sign-in data after creation or a password reset. The password is never
 * shown again, so only the Done button closes it: a stray click outside must not lose it.
 */
export function CredentialsDialog({
  credentials,
  onClose,
}: {
  credentials: Credentials;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  // The short code (any case, no 0/O/1/I/L) is what a contributor can read out and type on a phone.
  const teamCode = credentials.teamCode;
  // Internal members are contributors: their sign-in is the upload app's, with the team filled in.
  const signInUrl = `${window.location.origin}${UPLOAD_SIGN_IN_PATH}?team=${encodeURIComponent(teamCode)}`;

  return (
    <Dialog open aria-labelledby={titleId} maxWidth="sm" fullWidth disableEscapeKeyDown>
      <DialogTitle id={titleId}>{t('members.credentials.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('members.credentials.text', { username: credentials.username })}
        </DialogContentText>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <CopyField label={t('members.credentials.teamCode')} value={teamCode} />
          <CopyField label={t('members.credentials.username')} value={credentials.username} />
          <CopyField label={t('members.credentials.password')} value={credentials.password} />
          <CopyField label={t('members.credentials.signInUrl')} value={signInUrl} />
          <Alert severity="warning">{t('members.credentials.once')}</Alert>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('actions.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
