import type { NewPasswordRequiredData, SecondFactorRequiredData } from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AuthCard } from '../../components/auth/auth-card';
import { NewPasswordForm } from '../../features/auth/components/new-password-form';
import {
  SecondFactorForm,
  secondFactorTextKey,
} from '../../features/auth/components/second-factor-form';
import { peekSignInRedirect, teamFromQuery } from '../../lib/auth/sign-in-redirect';
import { ProviderButtons } from '../../components/auth/provider-buttons';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { signInPurpose } from '../../features/auth/utils/sign-in-purpose';
import { uploadSignedInTarget } from '../../features/upload-app/components/upload-route-guards';

/**
 * /upload/signin: the team app's sign-in form (e-mail or username, the team code for internal
 * contributors, the providers) and, at a first sign-in, its new-password form, inside the upload
 * app. Signing in flips the session; UploadGuestRoute then takes the user on into the app, and a
 * provider's callback returns to it too.
 */
export function UploadSignInPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [challenge, setChallenge] = useState<NewPasswordRequiredData | null>(null);
  const [secondFactor, setSecondFactor] = useState<SecondFactorRequiredData | null>(null);
  useDocumentTitle(t('uploadApp.signIn.documentTitle'));
  // Sent here from a page of the app (a shared collection link): say where signing in leads.
  const remembered = peekSignInRedirect();
  const purpose =
    remembered !== null && uploadSignedInTarget(searchParams, remembered) === remembered
      ? signInPurpose(remembered)
      : null;
  const subtitle =
    purpose !== null && purpose.key !== 'page'
      ? t(`auth.signIn.continueTo.${purpose.key}`, purpose.values)
      : t('uploadApp.signIn.subtitle');

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
    <AuthCard title={t('uploadApp.signIn.title')} subtitle={subtitle}>
      <SignInForm
        queryTeam={teamFromQuery(searchParams)}
        onNewPasswordRequired={setChallenge}
        onSecondFactorRequired={setSecondFactor}
        uploadApp
      />
      <ProviderButtons returnTo={uploadSignedInTarget(searchParams, peekSignInRedirect())} />
    </AuthCard>
  );
}
