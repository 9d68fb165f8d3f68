import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import {
  resendVerificationRequestSchema,
  verifyLinkQuerySchema,
  type VerifyEmailRequest,
} from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useVerifyEmailMutation } from '../api/verify-email';
import { useRunOnce } from '../../../lib/use-run-once';
import { useAuthErrorText } from '../utils/auth-error-text';
import { AuthCard, AuthOutcome, SignInButton } from '../../../components/auth/auth-card';
import { PendingStatus } from '../../../components/auth/pending-status';
import { ResendVerification } from './resend-verification';
import { ResetPasswordForm } from './reset-password-page';

/** After a failed verification: a new link when the link names a valid address, and sign-in. */
function FailedActions({ email }: { email: string | null }) {
  return (
    <Stack spacing={2}>
      {email !== null && <ResendVerification email={email} />}
      <SignInButton variant="outlined" />
    </Stack>
  );
}

function Verification({ link }: { link: VerifyEmailRequest }) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const mutation = useVerifyEmailMutation();
  // The code is single-use: a second request would fail and replace the success with an error.
  useRunOnce(() => mutation.mutate(link));

  if (mutation.isSuccess && mutation.data.resetCode !== undefined) {
    // More than one password was chosen for this address before it was proven: none was kept.
    return (
      <Stack spacing={2}>
        <Alert severity="info">{t('auth.verify.choosePassword')}</Alert>
        <ResetPasswordForm email={link.email} code={mutation.data.resetCode} />
      </Stack>
    );
  }
  if (mutation.isSuccess) {
    return (
      <AuthOutcome
        severity="success"
        message={t('auth.verify.success')}
        action={<SignInButton email={link.email} />}
      />
    );
  }
  if (mutation.isError) {
    return (
      <AuthOutcome
        severity="error"
        message={errorText(mutation.error)}
        action={<FailedActions email={link.email} />}
      />
    );
  }
  return <PendingStatus text={t('auth.verify.pending')} />;
}

/** /auth/verify?email&code&username, the link of the verification e-mail; runs on load. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const link = verifyLinkQuerySchema.safeParse({
    email: searchParams.get('email') ?? undefined,
    code: searchParams.get('code') ?? undefined,
    username: searchParams.get('username') ?? undefined,
  });
  const linkEmail = resendVerificationRequestSchema.safeParse({
    email: searchParams.get('email') ?? undefined,
  });

  return (
    <AuthCard title={t('auth.verify.title')}>
      {link.success ? (
        <Verification link={link.data} />
      ) : (
        <AuthOutcome
          severity="error"
          message={t('validation.invalidVerification')}
          action={<FailedActions email={linkEmail.success ? linkEmail.data.email : null} />}
        />
      )}
    </AuthCard>
  );
}
