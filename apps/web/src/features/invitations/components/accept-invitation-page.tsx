import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { acceptInvitationLinkQuerySchema } from '@raccolta/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { BackHomeButton } from '../../../components/back-home-button';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { AuthCard, AuthOutcome } from '../../../components/auth/auth-card';
import { forgetSignInRedirect } from '../../../lib/auth/sign-in-redirect';
import { PendingStatus } from '../../../components/auth/pending-status';
import { useRunOnce } from '../../../lib/use-run-once';
import { useSession } from '../../../lib/auth/session/session-context';
import {
  invitationSummaryOf,
  useAcceptInvitationMutation,
  type InvitationSummary,
} from '../api/accept-invitation';
import { InvitedAccountForm } from './invited-account-form';
import { InvitationAccepted, SignInToAccept, SwitchAccount } from './invitation-outcomes';

/** Which team the invitation is for and who sent it, above the step the invitee has to take. */
function Introduced({ summary, children }: { summary: InvitationSummary; children: ReactNode }) {
  const { t } = useTranslation();
  const { teamName, inviterName } = summary;
  if (teamName === null) return children;
  return (
    <Stack spacing={2}>
      <Typography>
        {inviterName === null
          ? t('invitations.accept.invitedTo', { team: teamName })
          : t('invitations.accept.invitedBy', { inviter: inviterName, team: teamName })}
      </Typography>
      {children}
    </Stack>
  );
}

function Acceptance({
  teamId,
  token,
  onSignedOut,
}: {
  teamId: string;
  token: string;
  onSignedOut: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const session = useSession();
  // The first attempt decides the flow; the retry with a password has its own state, so a
  // refused password shows in the form instead of replacing it.
  const first = useAcceptInvitationMutation(teamId);
  const retry = useAcceptInvitationMutation(teamId);
  // A token is single-use: StrictMode's second effect must not send it again.
  useRunOnce(() => first.mutate({ token }, { onSuccess: forgetSignInRedirect }));

  const membership = retry.data ?? first.data;
  if (membership !== undefined) return <InvitationAccepted membership={membership} />;

  if (first.isError) {
    const code = isApiError(first.error) ? first.error.errorCode : null;
    const summary = invitationSummaryOf(first.error);
    const { email } = summary;
    if (code === 'newInvitedAccountRequired' && email !== null) {
      return (
        <Introduced summary={summary}>
          <InvitedAccountForm
            email={email}
            pending={retry.isPending}
            error={retry.error}
            onSubmit={(password) => retry.mutate({ token, password })}
          />
        </Introduced>
      );
    }
    if (code === 'notLoggedIn') {
      return (
        <Introduced summary={summary}>
          <SignInToAccept email={email} teamId={teamId} />
        </Introduced>
      );
    }
    if (code === 'emailMismatch' && email !== null) {
      // Signed in as someone else: sign out and open the same invitation as the invited address.
      return (
        <Introduced summary={summary}>
          <SwitchAccount
            email={email}
            onSwitch={async () => {
              await session.signOut();
              onSignedOut();
            }}
          />
        </Introduced>
      );
    }
    return (
      <AuthOutcome
        severity="error"
        message={errorText(first.error)}
        action={<BackHomeButton variant="outlined" />}
      />
    );
  }
  return <PendingStatus text={t('invitations.accept.pending')} />;
}

/** /teams/{teamId}/invitations/accept?key=…: accepts on load (spec §2), signed in or not. */
export function AcceptInvitationPage() {
  const { t } = useTranslation();
  const { teamId = '' } = useParams();
  const [searchParams] = useSearchParams();
  // Each round opens the link afresh: after switching accounts it runs again, signed out.
  const [round, setRound] = useState(0);
  const link = acceptInvitationLinkQuerySchema.safeParse({
    key: searchParams.get('key') ?? undefined,
  });

  return (
    <AuthCard title={t('invitations.accept.title')}>
      {link.success ? (
        <Acceptance
          key={round}
          teamId={teamId}
          token={link.data.key}
          onSignedOut={() => setRound((n) => n + 1)}
        />
      ) : (
        <AuthOutcome
          severity="error"
          message={t('validation.invalidAcceptToken')}
          action={<BackHomeButton variant="outlined" />}
        />
      )}
    </AuthCard>
  );
}
