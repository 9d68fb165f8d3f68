import { rejectInvitationLinkQuerySchema } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { BackHomeButton } from '../../../components/back-home-button';
import { useErrorText } from '../../../lib/error-text';
import { AuthCard, AuthOutcome } from '../../../components/auth/auth-card';
import { PendingStatus } from '../../../components/auth/pending-status';
import { useRunOnce } from '../../../lib/use-run-once';
import { useRejectInvitationMutation } from '../api/reject-invitation';

function Rejection({ teamId, token }: { teamId: string; token: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const mutation = useRejectInvitationMutation(teamId);
  useRunOnce(() => mutation.mutate({ token }));

  if (mutation.isSuccess) {
    return (
      <AuthOutcome
        severity="success"
        message={t('invitations.reject.success')}
        action={<BackHomeButton />}
      />
    );
  }
  if (mutation.isError) {
    return (
      <AuthOutcome
        severity="error"
        message={errorText(mutation.error)}
        action={<BackHomeButton variant="outlined" />}
      />
    );
  }
  return <PendingStatus text={t('invitations.reject.pending')} />;
}

/** /teams/{teamId}/invitations/reject?key=…: declines on load (spec §2); the link is enough. */
export function RejectInvitationPage() {
  const { t } = useTranslation();
  const { teamId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const link = rejectInvitationLinkQuerySchema.safeParse({
    key: searchParams.get('key') ?? undefined,
  });

  return (
    <AuthCard title={t('invitations.reject.title')}>
      {link.success ? (
        <Rejection teamId={teamId} token={link.data.key} />
      ) : (
        <AuthOutcome
          severity="error"
          message={t('validation.invalidRejectToken')}
          action={<BackHomeButton variant="outlined" />}
        />
      )}
    </AuthCard>
  );
}
