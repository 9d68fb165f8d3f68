import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import {
  reauthenticationRequiredDataSchema,
  type ReauthenticationMethod,
} from '@raccolta/contracts';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormDialog } from '../../../components/form/form-dialog';
import { isApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth/session/session-context';
import { useReauthenticate } from '../api/second-factors';

/**
 * The ways to confirm it is you, when `error` is 403 reauthenticationRequired (a change to how one
 * signs in, more than 10 minutes after the sign-in); null for any other error.
 */
export function reauthenticationMethodsOf(error: unknown): ReauthenticationMethod[] | null {
  if (!isApiError(error) || error.errorCode !== 'reauthenticationRequired') return null;
  const data = reauthenticationRequiredDataSchema.safeParse(error.data);
  return data.success ? data.data.methods : [];
}

/**
 * "Confirm it's you": the password, or a code from the authenticator app, then `onDone` (which
 * repeats what was asked). An account with neither (signed in through a provider) is asked to
 * sign in again.
 */
export function ReauthenticateDialog({
  methods,
  onDone,
  onClose,
}: {
  methods: ReauthenticationMethod[];
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { signOut } = useSession();
  const reauthenticate = useReauthenticate();
  const [method, setMethod] = useState<ReauthenticationMethod | undefined>(methods[0]);
  const [value, setValue] = useState('');
  const textId = useId();

  if (method === undefined) {
    return (
      <Dialog open onClose={onClose} aria-labelledby={`${textId}-title`} maxWidth="xs" fullWidth>
        <DialogTitle id={`${textId}-title`}>{t('profile.reauth.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('profile.reauth.signInAgainText')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button
            variant="contained"
            onClick={() => void signOut().then(() => navigate('/auth/signin'))}
          >
            {t('profile.reauth.signInAgain')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  const other = methods.find((m) => m !== method);
  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    await reauthenticate
      .mutateAsync(method === 'password' ? { password: value } : { code: value })
      .then(onDone, () => undefined);
  };
  return (
    <FormDialog
      title={t('profile.reauth.title')}
      onSubmit={onSubmit}
      onClose={onClose}
      pending={reauthenticate.isPending}
      error={reauthenticate.error}
      submitLabel={t('profile.reauth.submit')}
      submitDisabled={value.trim() === ''}
      maxWidth="xs"
    >
      <DialogContentText>
        {t(method === 'password' ? 'profile.reauth.textPassword' : 'profile.reauth.textCode')}
      </DialogContentText>
      {method === 'password' ? (
        <TextField
          type="password"
          label={t('auth.fields.password')}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="current-password"
          autoFocus
          required
        />
      ) : (
        <TextField
          label={t('auth.secondFactor.code')}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8 } }}
          autoFocus
          required
        />
      )}
      {other !== undefined && (
        <Link
          component="button"
          type="button"
          onClick={() => {
            setMethod(other);
            setValue('');
            reauthenticate.reset();
          }}
          sx={{ alignSelf: 'flex-start', textAlign: 'left' }}
        >
          {t(other === 'password' ? 'profile.reauth.usePassword' : 'profile.reauth.useCode')}
        </Link>
      )}
    </FormDialog>
  );
}
