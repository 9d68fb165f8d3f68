import type { NewPasswordRequiredData, SecondFactorRequiredData } from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { signInPurpose } from '../utils/sign-in-purpose';
import {
  peekSignInRedirect,
  signedInTarget,
  teamFromQuery,
} from '../../../lib/auth/sign-in-redirect';
import { AuthCard, type SignInState } from '../../../components/auth/auth-card';
import { NewPasswordForm } from './new-password-form';
import { SecondFactorForm, secondFactorTextKey } from './second-factor-form';
import { ProviderButtons } from '../../../components/auth/provider-buttons';
import { SignInForm } from './sign-in-form';

/**
 * What the page says under its title: where signing in leads, when the visitor was sent here from
 * a page behind sign-in and goes back there, else a welcome.
 */
function useSubtitle(searchParams: URLSearchParams): string {
  const { t } = useTranslation();
  const remembered = peekSignInRedirect();
  if (remembered === null || signedInTarget(searchParams, remembered) !== remembered) {
    return t('auth.signIn.subtitle');
  }
  const purpose = signInPurpose(remembered);
  return t(`auth.signIn.continueTo.${purpose.key}`, purpose.values);
}

/**
 * Sign-in; a successful sign-in flips the session and the guest-only guard around this page sends
 * the user on (to the query's team, the page they wanted, or the team list).
 */
export function SignInPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [challenge, setChallenge] = useState<NewPasswordRequiredData | null>(null);
  const [secondFactor, setSecondFactor] = useState<SecondFactorRequiredData | null>(null);
  const subtitle = useSubtitle(searchParams);
  // The address just verified (verify-email-page.tsx), so only the password is left to type.
  const state = useLocation().state as SignInState | null;
  const email = typeof state?.email === 'string' ? state.email : undefined;

  if (secondFactor !== null) {
    return (
      <AuthCard
        title={t('auth.secondFactor.title')}
        subtitle={t(secondFactorTextKey(secondFactor.methods))}
      >
        <SecondFactorForm challenge={secondFactor} onCancel={() => setSecondFactor(null)} />
      </AuthCard>
    );
  }
  if (challenge !== null) {
    return (
      <AuthCard title={t('auth.newPassword.title')} subtitle={t('auth.newPassword.text')}>
        <NewPasswordForm challenge={challenge} onCancel={() => setChallenge(null)} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.signIn.title')} subtitle={subtitle}>
      <SignInForm
        queryTeam={teamFromQuery(searchParams)}
        initialIdentifier={email}
        onNewPasswordRequired={setChallenge}
        onSecondFactorRequired={setSecondFactor}
      />
      <ProviderButtons />
    </AuthCard>
  );
}
