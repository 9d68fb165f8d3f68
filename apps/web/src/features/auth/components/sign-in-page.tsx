import type { NewPasswordRequiredData } from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { teamFromQuery } from '../utils/sign-in-redirect';
import { AuthCard } from './auth-card';
import { NewPasswordForm } from './new-password-form';
import { ProviderButtons } from './provider-buttons';
import { SignInForm } from './sign-in-form';

/**
 * Sign-in; a successful sign-in flips the session and the guest-only guard around this page sends
 * the user on (to the query's team, the page they wanted, or the team list).
 */
export function SignInPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [challenge, setChallenge] = useState<NewPasswordRequiredData | null>(null);

  if (challenge !== null) {
    return (
      <AuthCard title={t('auth.newPassword.title')} subtitle={t('auth.newPassword.text')}>
        <NewPasswordForm challenge={challenge} onCancel={() => setChallenge(null)} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
      <SignInForm queryTeam={teamFromQuery(searchParams)} onNewPasswordRequired={setChallenge} />
      <ProviderButtons />
    </AuthCard>
  );
}
