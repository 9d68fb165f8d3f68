import type { NewPasswordRequiredData } from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  AuthCard,
  NewPasswordForm,
  peekSignInRedirect,
  ProviderButtons,
  SignInForm,
  teamFromQuery,
} from '../../auth';
import { uploadSignedInTarget } from './upload-route-guards';

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
  useDocumentTitle(t('uploadApp.signIn.documentTitle'));

  if (challenge !== null) {
    return (
      <AuthCard title={t('auth.newPassword.title')} subtitle={t('auth.newPassword.text')}>
        <NewPasswordForm challenge={challenge} onCancel={() => setChallenge(null)} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('uploadApp.signIn.title')} subtitle={t('uploadApp.signIn.subtitle')}>
      <SignInForm
        queryTeam={teamFromQuery(searchParams)}
        onNewPasswordRequired={setChallenge}
        uploadApp
      />
      <ProviderButtons returnTo={uploadSignedInTarget(searchParams, peekSignInRedirect())} />
    </AuthCard>
  );
}
