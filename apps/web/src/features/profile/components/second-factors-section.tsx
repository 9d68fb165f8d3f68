import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReauthenticationMethod, TotpEnrolmentResponse } from '@raccolta/contracts';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text';
import { formatDate } from '../../../lib/format-date';
import {
  useAddPasskey,
  useConfirmTotp,
  useDisableTotp,
  useRegenerateRecoveryCodes,
  useRemovePasskey,
  useSecondFactors,
  useStartTotp,
} from '../api/second-factors';
import { ReauthenticateDialog, reauthenticationMethodsOf } from './reauthenticate-dialog';

type PasskeyFailure = 'address' | 'failed';

/**
 * Why a passkey was not added. A browser refuses WebAuthn on a numeric address (127.0.0.1, an
 * IPv6 address): @simplewebauthn/browser names it ERROR_INVALID_DOMAIN (a SecurityError), and
 * trying again there would never work.
 */
export function passkeyFailureOf(error: unknown): PasskeyFailure {
  // A DOMException is not an Error everywhere: its name and code are read from any object.
  if (typeof error === 'object' && error !== null) {
    const { name, code } = error as { name?: unknown; code?: unknown };
    if (code === 'ERROR_INVALID_DOMAIN' || name === 'SecurityError') return 'address';
  }
  return 'failed';
}

/** The recovery codes, shown once: right after the first factor, or after making new ones. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" role="status" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('profile.secondFactors.recoveryShown')}
      </Typography>
      <Box
        component="ul"
        aria-label={t('profile.secondFactors.recoveryTitle')}
        sx={{
          fontFamily: 'monospace',
          display: 'grid',
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          gap: 0.5,
          listStyle: 'none',
          p: 0,
          m: 0,
          mb: 1,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Button size="small" variant="outlined" color="inherit" onClick={onDone}>
        {t('profile.secondFactors.recoverySaved')}
      </Button>
    </Alert>
  );
}

/** The otpauth:// URI as a QR code; the encoder loads only here. */
function TotpQrCode({ uri }: { uri: string }) {
  const { t } = useTranslation();
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qrcode) => qrcode.toString(uri, { type: 'svg', margin: 2, width: 200 }))
      .then((value) => {
        if (live) setSvg(value);
      });
    return () => {
      live = false;
    };
  }, [uri]);
  if (svg === null) return <Box sx={{ width: 200, height: 200 }} />;
  return (
    <Box
      component="img"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={t('profile.secondFactors.qrAlt')}
      sx={{ width: 200, height: 200, bgcolor: '#fff', borderRadius: 1 }}
    />
  );
}

function TotpEnrolment({
  enrolment,
  onDone,
}: {
  enrolment: TotpEnrolmentResponse;
  onDone: (codes: string[] | undefined) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [code, setCode] = useState('');
  const confirm = useConfirmTotp();
  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    confirm.mutate(code, { onSuccess: (answer) => onDone(answer.recoveryCodes) });
  };
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        <Typography variant="body2">{t('profile.secondFactors.totpScan')}</Typography>
        <TotpQrCode uri={enrolment.uri} />
        <Typography variant="body2">
          {t('profile.secondFactors.totpSecret')}{' '}
          <Box component="code" data-testid="totp-secret" sx={{ wordBreak: 'break-all' }}>
            {enrolment.secret}
          </Box>
        </Typography>
        <TextField
          label={t('auth.secondFactor.code')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8 } }}
          required
        />
        {confirm.error !== null && <Alert severity="error">{errorText(confirm.error)}</Alert>}
        <Button type="submit" variant="contained" loading={confirm.isPending}>
          {t('profile.secondFactors.totpConfirm')}
        </Button>
      </Stack>
    </Box>
  );
}

function TotpDisable({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [password, setPassword] = useState('');
  const disable = useDisableTotp();
  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    disable.mutate({ password }, { onSuccess: onDone });
  };
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        <TextField
          type="password"
          label={t('auth.fields.password')}
          helperText={t('profile.secondFactors.totpDisableHelp')}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="current-password"
          required
        />
        {disable.error !== null && <Alert severity="error">{errorText(disable.error)}</Alert>}
        <Stack direction="row" spacing={1}>
          <Button type="submit" color="error" variant="outlined" loading={disable.isPending}>
            {t('profile.secondFactors.totpDisable')}
          </Button>
          <Button onClick={onDone}>{t('actions.cancel')}</Button>
        </Stack>
      </Stack>
    </Box>
  );
}

/** Profile → Security: authenticator app, passkeys and recovery codes. */
export function SecondFactorsSection() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const { data, error } = useSecondFactors();
  const startTotp = useStartTotp();
  const regenerate = useRegenerateRecoveryCodes();
  const addPasskey = useAddPasskey();
  const removePasskey = useRemovePasskey();
  const [enrolment, setEnrolment] = useState<TotpEnrolmentResponse | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [passkeyName, setPasskeyName] = useState('');
  const [passkeyFailure, setPasskeyFailure] = useState<PasskeyFailure | null>(null);

  const [reauth, setReauth] = useState<{
    methods: ReauthenticationMethod[];
    retry: () => void;
  } | null>(null);

  const showCodes = (value: string[] | undefined) => {
    if (value !== undefined) setCodes(value);
  };
  /**
   * A change to how one signs in, long after the sign-in, is refused until the person confirms
   * it is them: the dialog opens, then the change is asked again. True when that happened.
   */
  const askToConfirm = (error: unknown, retry: () => void) => {
    const methods = reauthenticationMethodsOf(error);
    if (methods === null) return false;
    setReauth({ methods, retry });
    return true;
  };
  /** An error to show in the section: not the one the dialog answers. */
  const shown = (error: unknown) => (reauthenticationMethodsOf(error) === null ? error : null);

  const beginTotp = () =>
    startTotp.mutate(undefined, {
      onSuccess: setEnrolment,
      onError: (error) => askToConfirm(error, beginTotp),
    });
  const newRecoveryCodes = () =>
    regenerate.mutate(undefined, {
      onSuccess: (answer) => showCodes(answer.recoveryCodes),
      onError: (error) => askToConfirm(error, newRecoveryCodes),
    });
  const remove = (id: string) =>
    removePasskey.mutate(id, { onError: (error) => askToConfirm(error, () => remove(id)) });
  const createPasskey = (name: string) => {
    setPasskeyFailure(null);
    addPasskey.mutate(name, {
      onSuccess: (answer) => {
        setPasskeyName('');
        showCodes(answer.recoveryCodes);
      },
      onError: (error) => {
        if (!askToConfirm(error, () => createPasskey(name)))
          setPasskeyFailure(passkeyFailureOf(error));
      },
    });
  };
  const onAddPasskey = (event: SyntheticEvent) => {
    event.preventDefault();
    createPasskey(
      passkeyName.trim() === ''
        ? t('profile.secondFactors.passkeyDefaultName')
        : passkeyName.trim(),
    );
  };

  let body;
  if (error !== null) {
    body = <Alert severity="error">{errorText(error)}</Alert>;
  } else if (data === undefined) {
    body = null;
  } else if (!data.allowed) {
    body = <Alert severity="info">{t('profile.secondFactors.notAllowed')}</Alert>;
  } else {
    const hasFactor = data.totp || data.passkeys.length > 0;
    body = (
      <Stack spacing={3}>
        {codes !== null && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
        <Stack spacing={1}>
          <Typography variant="subtitle1" component="h3">
            {t('profile.secondFactors.totpTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {data.totp ? t('profile.secondFactors.totpOn') : t('profile.secondFactors.totpOff')}
          </Typography>
          {!data.totp && enrolment === null && (
            <Box>
              <Button variant="outlined" loading={startTotp.isPending} onClick={beginTotp}>
                {t('profile.secondFactors.totpSetUp')}
              </Button>
            </Box>
          )}
          {shown(startTotp.error) !== null && (
            <Alert severity="error">{errorText(startTotp.error)}</Alert>
          )}
          {!data.totp && enrolment !== null && (
            <TotpEnrolment
              enrolment={enrolment}
              onDone={(value) => {
                setEnrolment(null);
                showCodes(value);
              }}
            />
          )}
          {data.totp && !disabling && (
            <Box>
              <Button color="error" onClick={() => setDisabling(true)}>
                {t('profile.secondFactors.totpDisable')}
              </Button>
            </Box>
          )}
          {data.totp && disabling && <TotpDisable onDone={() => setDisabling(false)} />}
        </Stack>
        <Divider />
        <Stack spacing={1}>
          <Typography variant="subtitle1" component="h3">
            {t('profile.secondFactors.passkeysTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('profile.secondFactors.passkeysText')}
          </Typography>
          {data.passkeys.length > 0 && (
            <List dense aria-label={t('profile.secondFactors.passkeysTitle')}>
              {data.passkeys.map((passkey) => (
                <ListItem
                  key={passkey.id}
                  disableGutters
                  secondaryAction={
                    <Button
                      color="error"
                      size="small"
                      onClick={() => remove(passkey.id)}
                      aria-label={t('profile.secondFactors.passkeyRemoveNamed', {
                        name: passkey.name,
                      })}
                    >
                      {t('profile.secondFactors.passkeyRemove')}
                    </Button>
                  }
                >
                  <ListItemText
                    primary={passkey.name}
                    secondary={t('profile.secondFactors.passkeyAdded', {
                      date: formatDate(passkey.createdAt, i18n.language),
                    })}
                  />
                </ListItem>
              ))}
            </List>
          )}
          {shown(removePasskey.error) !== null && (
            <Alert severity="error">{errorText(removePasskey.error)}</Alert>
          )}
          <Stack
            component="form"
            noValidate
            onSubmit={onAddPasskey}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'flex-start' } }}
          >
            <TextField
              size="small"
              label={t('profile.secondFactors.passkeyName')}
              value={passkeyName}
              onChange={(event) => setPasskeyName(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 64 } }}
            />
            <Button type="submit" variant="outlined" loading={addPasskey.isPending}>
              {t('profile.secondFactors.passkeyAdd')}
            </Button>
          </Stack>
          {passkeyFailure !== null && (
            <Alert severity="error">
              {t(
                passkeyFailure === 'address'
                  ? 'profile.secondFactors.passkeyAddress'
                  : 'profile.secondFactors.passkeyFailed',
              )}
            </Alert>
          )}
        </Stack>
        {hasFactor && (
          <>
            <Divider />
            <Stack spacing={1}>
              <Typography variant="subtitle1" component="h3">
                {t('profile.secondFactors.recoveryTitle')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('profile.secondFactors.recoveryLeft', { count: data.recoveryCodesLeft })}
              </Typography>
              <Box>
                <Button
                  variant="outlined"
                  loading={regenerate.isPending}
                  onClick={newRecoveryCodes}
                >
                  {t('profile.secondFactors.recoveryNew')}
                </Button>
              </Box>
              {shown(regenerate.error) !== null && (
                <Alert severity="error">{errorText(regenerate.error)}</Alert>
              )}
            </Stack>
          </>
        )}
      </Stack>
    );
  }

  return (
    <Box component="section" aria-labelledby="security-title" sx={{ mt: 4 }}>
      <Typography id="security-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('profile.secondFactors.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('profile.secondFactors.text')}
      </Typography>
      {body}
      {reauth !== null && (
        <ReauthenticateDialog
          methods={reauth.methods}
          onClose={() => setReauth(null)}
          onDone={() => {
            setReauth(null);
            reauth.retry();
          }}
        />
      )}
    </Box>
  );
}
