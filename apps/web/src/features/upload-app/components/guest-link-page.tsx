import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  EMAIL_PATTERN,
  GUEST_NAME_MAX_LENGTH,
  UPLOAD_LINK_PASSWORD_MAX_LENGTH,
  type GuestSession,
} from '@raccolta/contracts';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { TeamAvatar } from '../../../components/team-avatar';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useGuestLink } from '../hooks/use-guest-link';
import { useGuestUploads } from '../hooks/use-guest-uploads';
import { readGuestDetails, saveGuestDetails } from '../utils/guest-storage';
import { GuestFilesList } from './guest-files-list';
import { UploadControls } from './upload-controls';
import { UploadLoadState, UploadPage } from './upload-page';

/** The one page for a link that cannot be used: unknown, closed, expired or deleted. */
export function LinkUnavailable() {
  const { t } = useTranslation();
  useDocumentTitle(t('uploadApp.guest.unavailableTitle'));
  return (
    <UploadPage>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 4 }}>
        <LinkOffOutlined color="action" sx={{ fontSize: 56 }} aria-hidden />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t('uploadApp.guest.unavailableTitle')}
        </Typography>
        <Typography color="text.secondary">{t('uploadApp.guest.unavailableText')}</Typography>
        <Button component={RouterLink} to="/" variant="outlined">
          {t('uploadApp.guest.home')}
        </Button>
      </Stack>
    </UploadPage>
  );
}

function rateLimited(error: unknown): boolean {
  return isApiError(error) && error.errorCode === 'tooManyRequests';
}

function PasswordForm({
  error,
  submitting,
  onSubmit,
}: {
  error: unknown;
  submitting: boolean;
  onSubmit: (password: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [password, setPassword] = useState('');
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (password !== '') onSubmit(password);
  };
  return (
    <UploadPage>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('uploadApp.guest.passwordTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('uploadApp.guest.passwordText')}
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        {error !== null && (
          <Alert severity="error" role="alert">
            {rateLimited(error) ? t('uploadApp.guest.tooManyAttempts') : errorText(error)}
          </Alert>
        )}
        <TextField
          label={t('uploadApp.guest.password')}
          type="password"
          autoComplete="off"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          slotProps={{ htmlInput: { maxLength: UPLOAD_LINK_PASSWORD_MAX_LENGTH } }}
          required
          fullWidth
          autoFocus
        />
        <Button type="submit" variant="contained" size="large" disabled={submitting}>
          {t('uploadApp.guest.open')}
        </Button>
      </Stack>
    </UploadPage>
  );
}

function LinkHeading({ session }: { session: GuestSession }) {
  const { link } = session;
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
      <TeamAvatar team={{ name: link.teamName, logoUrl: link.teamLogoUrl }} size={48} />
      <Stack sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {link.collectionName}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {link.teamName}
        </Typography>
      </Stack>
    </Stack>
  );
}

/** Whether the guest's name and e-mail are what the link asks for (and well formed). */
export function detailsProblem(
  link: GuestSession['link'],
  name: string,
  email: string,
): 'name' | 'email' | null {
  if (link.requireName && name.trim() === '') return 'name';
  const mail = email.trim();
  if ((link.requireEmail && mail === '') || (mail !== '' && !EMAIL_PATTERN.test(mail))) {
    return 'email';
  }
  return null;
}

function GuestUploader({
  linkToken,
  session,
  onClosed,
  onPasswordNeeded,
}: {
  linkToken: string;
  session: GuestSession;
  onClosed: () => void;
  onPasswordNeeded: () => void;
}) {
  const { t } = useTranslation();
  const { link } = session;
  const [details, setDetails] = useState(() => readGuestDetails());
  const [touched, setTouched] = useState(false);
  const uploads = useGuestUploads(linkToken, session.guestId);
  const problem = detailsProblem(link, details.name, details.email);
  const closedByUpload = uploads.entries.some(
    (entry) => entry.failure?.errorCode === 'uploadLinkNotFound',
  );
  useEffect(() => {
    if (closedByUpload) onClosed();
  }, [closedByUpload, onClosed]);
  const lockedByUpload = uploads.entries.some(
    (entry) => entry.failure?.errorCode === 'uploadLinkPasswordRequired',
  );
  useEffect(() => {
    if (lockedByUpload) onPasswordNeeded();
  }, [lockedByUpload, onPasswordNeeded]);

  const change = (patch: { name?: string; email?: string }) => {
    setDetails((old) => ({ ...old, ...patch }));
    // Read by each upload as it starts (guestMetadata).
    saveGuestDetails(patch);
  };
  const showError = touched || details.name !== '' || details.email !== '';

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography variant="subtitle2" component="h2">
            {t('uploadApp.guest.aboutYou')}
          </Typography>
          <TextField
            label={t(link.requireName ? 'uploadApp.guest.name' : 'uploadApp.guest.nameOptional')}
            value={details.name}
            onChange={(event) => change({ name: event.target.value })}
            onBlur={() => setTouched(true)}
            autoComplete="name"
            required={link.requireName}
            error={showError && problem === 'name'}
            helperText={
              showError && problem === 'name'
                ? t('uploadApp.guest.nameRequired')
                : t('uploadApp.guest.nameHelp')
            }
            slotProps={{ htmlInput: { maxLength: GUEST_NAME_MAX_LENGTH } }}
            fullWidth
          />
          {link.requireEmail && (
            <TextField
              label={t('uploadApp.guest.email')}
              type="email"
              value={details.email}
              onChange={(event) => change({ email: event.target.value })}
              onBlur={() => setTouched(true)}
              autoComplete="email"
              required
              error={showError && problem === 'email'}
              {...(showError && problem === 'email'
                ? { helperText: t('uploadApp.guest.emailInvalid') }
                : {})}
              fullWidth
            />
          )}
        </Stack>
      </Paper>
      {problem !== null && (
        <Typography variant="body2" color="text.secondary">
          {t('uploadApp.guest.detailsFirst')}
        </Typography>
      )}
      <UploadControls uploads={uploads} disabled={problem !== null} />
      <GuestFilesList
        linkToken={linkToken}
        onClosed={onClosed}
        onPasswordNeeded={onPasswordNeeded}
      />
    </Stack>
  );
}

/** /upload/l/{token}: a guest uploads into a collection through an upload link, no account. */
export function GuestLinkPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { state, submitPassword, retry, closed, passwordNeeded } = useGuestLink(token);
  useDocumentTitle(state.status === 'ready' ? state.session.link.collectionName : null);

  if (state.status === 'unavailable') return <LinkUnavailable />;
  if (state.status === 'password') {
    return (
      <PasswordForm error={state.error} submitting={state.submitting} onSubmit={submitPassword} />
    );
  }
  if (state.status !== 'ready') {
    const error = state.status === 'failed' ? state.error : null;
    return (
      <UploadPage>
        {rateLimited(error) ? (
          <Alert severity="warning">{t('uploadApp.guest.tooManyAttempts')}</Alert>
        ) : (
          <UploadLoadState
            error={error}
            loadingText={t('uploadApp.guest.opening')}
            onRetry={retry}
          />
        )}
      </UploadPage>
    );
  }
  const { session } = state;
  return (
    <UploadPage>
      <LinkHeading session={session} />
      {session.link.collectionDescription !== null && (
        <Typography sx={{ mb: 2, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {session.link.collectionDescription}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('uploadApp.guest.intro')}
      </Typography>
      <GuestUploader
        key={session.guestId}
        linkToken={token}
        session={session}
        onClosed={closed}
        onPasswordNeeded={passwordNeeded}
      />
    </UploadPage>
  );
}
