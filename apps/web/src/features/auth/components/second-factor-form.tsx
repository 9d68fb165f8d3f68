import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { SecondFactorRequiredData } from '@raccolta/contracts';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  passkeyAssertion,
  useSecondFactorMutation,
  type SecondFactorAnswer,
} from '../api/second-factor';
import { useAuthErrorText } from '../utils/auth-error-text';
import type { IdClaims } from '../../../lib/auth/session/token-storage';

export interface SecondFactorFormProps {
  challenge: SecondFactorRequiredData;
  /** True after a social provider's sign-in (the session is marked as such). */
  identityProvider?: boolean;
  onCancel: () => void;
  /** Called with the new session's claims; the sign-in page's guard moves on by itself. */
  onSignedIn?: (claims: IdClaims) => void;
}

/** The second step's introduction, naming only the ways this account has. */
export function secondFactorTextKey(
  methods: SecondFactorRequiredData['methods'],
): 'auth.secondFactor.text' | 'auth.secondFactor.textApp' | 'auth.secondFactor.textPasskey' {
  const app = methods.includes('totp');
  const passkey = methods.includes('webauthn');
  if (app && passkey) return 'auth.secondFactor.text';
  return passkey ? 'auth.secondFactor.textPasskey' : 'auth.secondFactor.textApp';
}

/**
 * The second step of a sign-in (secondFactorRequired): a code from the authenticator app, a
 * passkey, or one of the recovery codes.
 */
export function SecondFactorForm({
  challenge,
  identityProvider = false,
  onCancel,
  onSignedIn,
}: SecondFactorFormProps) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const hasTotp = challenge.methods.includes('totp');
  const hasRecovery = challenge.methods.includes('recovery');
  const passkeyOptions = challenge.methods.includes('webauthn') ? challenge.webauthn : undefined;
  const [useRecovery, setUseRecovery] = useState(!hasTotp && passkeyOptions === undefined);
  const [code, setCode] = useState('');
  const [passkeyFailed, setPasskeyFailed] = useState(false);
  const mutation = useSecondFactorMutation(challenge, identityProvider);

  const send = (answer: SecondFactorAnswer) => {
    setPasskeyFailed(false);
    mutation.mutate(answer, { onSuccess: (claims) => onSignedIn?.(claims) });
  };
  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (value === '') return;
    send(useRecovery ? { recoveryCode: value } : { totp: value });
  };
  const onPasskey = async () => {
    if (passkeyOptions === undefined) return;
    try {
      send({ webauthn: await passkeyAssertion(passkeyOptions) });
    } catch {
      // Cancelled, timed out or no matching passkey on this device.
      setPasskeyFailed(true);
    }
  };
  const showCodeField = useRecovery || hasTotp;

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        {showCodeField && (
          <TextField
            // A new field (and value) when switching between an app code and a recovery code.
            key={useRecovery ? 'recovery' : 'totp'}
            name={useRecovery ? 'recoveryCode' : 'totp'}
            label={useRecovery ? t('auth.secondFactor.recoveryCode') : t('auth.secondFactor.code')}
            helperText={
              useRecovery ? t('auth.secondFactor.recoveryHelp') : t('auth.secondFactor.codeHelp')
            }
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="one-time-code"
            slotProps={{
              htmlInput: useRecovery
                ? { autoCapitalize: 'none', spellCheck: false }
                : { inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 8 },
            }}
            autoFocus
            required
            fullWidth
          />
        )}
        {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
        {passkeyFailed && <Alert severity="error">{t('auth.secondFactor.passkeyFailed')}</Alert>}
        {showCodeField && (
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={mutation.isPending}
          >
            {t('auth.secondFactor.submit')}
          </Button>
        )}
        {passkeyOptions !== undefined && (
          <>
            {showCodeField && <Divider>{t('auth.secondFactor.or')}</Divider>}
            <Button
              variant={showCodeField ? 'outlined' : 'contained'}
              size="large"
              fullWidth
              onClick={() => void onPasskey()}
              disabled={mutation.isPending}
            >
              {t('auth.secondFactor.usePasskey')}
            </Button>
          </>
        )}
        {hasRecovery && (hasTotp || passkeyOptions !== undefined) && (
          <Box sx={{ textAlign: 'center' }}>
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={() => {
                setUseRecovery((value) => !value);
                setCode('');
                mutation.reset();
              }}
            >
              {useRecovery && hasTotp
                ? t('auth.secondFactor.useApp')
                : t('auth.secondFactor.useRecovery')}
            </Link>
          </Box>
        )}
        <Button onClick={onCancel} disabled={mutation.isPending}>
          {t('actions.backToSignIn')}
        </Button>
      </Stack>
    </Box>
  );
}
