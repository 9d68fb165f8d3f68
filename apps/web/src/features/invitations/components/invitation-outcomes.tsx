import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { BackHomeButton } from '../../../components/back-home-button';
import { AuthOutcome } from '../../../components/auth/auth-card';
import { rememberSignInRedirect } from '../../../lib/auth/sign-in-redirect';
import { UPLOAD_APP_PATH } from '../../../lib/upload-paths';
import type { AcceptedMembership } from '../api/accept-invitation';

/**
 * Accepted: the role joined as and the way on. Contributors upload with the upload app, so it is
 * their first (primary) way on, and the team app the second.
 */
export function InvitationAccepted({ membership }: { membership: AcceptedMembership }) {
  const { t } = useTranslation();
  const contributor = membership.role === 'uploader';
  return (
    <Stack spacing={2}>
      <Alert severity="success">
        {t('invitations.accept.success', {
          team: membership.teamName,
          role: t(`roles.${membership.role}`),
        })}
      </Alert>
      {contributor && <Alert severity="info">{t('invitations.accept.uploaderNote')}</Alert>}
      {contributor && (
        <Button
          component={RouterLink}
          to={UPLOAD_APP_PATH}
          variant="contained"
          size="large"
          fullWidth
        >
          {t('invitations.accept.uploaderLink')}
        </Button>
      )}
      <Button
        component={RouterLink}
        to={`/teams/${encodeURIComponent(membership.teamId)}`}
        variant={contributor ? 'outlined' : 'contained'}
        size="large"
        fullWidth
      >
        {t('invitations.accept.goToTeam')}
      </Button>
    </Stack>
  );
}

/**
 * notLoggedIn: the invitee has an account of their own and must sign in as it. The sign-in page
 * gets the team, and this page is remembered so the sign-in comes back here to accept.
 */
export function SignInToAccept({ email, teamId }: { email: string | null; teamId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return (
    <AuthOutcome
      severity="warning"
      message={
        email === null ? t('errors.notLoggedIn') : t('invitations.accept.signInAs', { email })
      }
      action={
        <Button
          variant="contained"
          size="large"
          fullWidth
          onClick={() => {
            rememberSignInRedirect(`${pathname}${search}`);
            void navigate(`/auth/signin?team=${encodeURIComponent(teamId)}`);
          }}
        >
          {t('actions.signIn')}
        </Button>
      }
    />
  );
}

/**
 * emailMismatch: signed in as someone other than the invited address. Signing out runs the same
 * invitation again as a visitor, which then asks for the invited account's sign-in or password.
 */
export function SwitchAccount({
  email,
  onSwitch,
}: {
  email: string;
  onSwitch: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  return (
    <AuthOutcome
      severity="warning"
      message={t('invitations.accept.otherAccount', { email })}
      action={
        <Stack spacing={2}>
          <Button
            variant="contained"
            size="large"
            fullWidth
            loading={pending}
            onClick={() => {
              setPending(true);
              void onSwitch().finally(() => setPending(false));
            }}
          >
            {t('invitations.accept.switchAccount', { email })}
          </Button>
          <BackHomeButton variant="outlined" />
        </Stack>
      }
    />
  );
}
