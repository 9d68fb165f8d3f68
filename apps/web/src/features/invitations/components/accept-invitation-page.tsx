import { acceptInvitationLinkQuerySchema } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { BackHomeButton } from '../../../components/back-home-button';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { AuthCard, AuthOutcome, forgetSignInRedirect, PendingStatus, useRunOnce } from '../../auth';
import { invitedEmailOf, useAcceptInvitationMutation } from '../api/accept-invitation';
import { InvitedAccountForm } from './invited-account-form';
import { InvitationAccepted, SignInToAccept } from './invitation-outcomes';

function Acceptance({ teamId, token }: { teamId: string; token: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
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
    const email = invitedEmailOf(first.error);
    if (code === 'newInvitedAccountRequired' && email !== null) {
      return (
        <InvitedAccountForm
          email={email}
          pending={retry.isPending}
          error={retry.error}
          onSubmit={(password) => retry.mutate({ token, password })}
        />
      );
    }
    if (code === 'notLoggedIn') return <SignInToAccept email={email} teamId={teamId} />;
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
  const link = acceptInvitationLinkQuerySchema.safeParse({
    key: searchParams.get('key') ?? undefined,
  });

  return (
    <AuthCard title={t('invitations.accept.title')}>
      {link.success ? (
        <Acceptance teamId={teamId} token={link.data.key} />
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
