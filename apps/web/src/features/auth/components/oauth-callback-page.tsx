import { ACCEPT_REDIRECT_DELAY_MS } from '@raccolta/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  oauthSignedInOutcome,
  useOAuthCallbackMutation,
  type OAuthSignInOutcome,
} from '../api/exchange-oauth-code';
import { SecondFactorForm } from './second-factor-form';
import { useRunOnce } from '../../../lib/use-run-once';
import { isSessionError } from '../../../lib/auth/session/token-storage';
import { useAuthErrorText } from '../utils/auth-error-text';
import { DEFAULT_SIGNED_IN_PATH } from '../../../lib/auth/sign-in-redirect';
import { AuthCard, AuthOutcome, SignInButton } from '../../../components/auth/auth-card';
import { PendingStatus } from '../../../components/auth/pending-status';

function CodeExchange({ code, state }: { code: string; state: string }) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const navigate = useNavigate();
  const mutation = useOAuthCallbackMutation();
  // An authorization code is redeemed once; StrictMode's second effect must not try again.
  useRunOnce(() => mutation.mutate({ code, state }));
  // After the second step, when the account has one.
  const [afterSecondFactor, setAfterSecondFactor] = useState<OAuthSignInOutcome | null>(null);
  const secondFactor = mutation.data?.secondFactor;
  const outcome = afterSecondFactor ?? (secondFactor === undefined ? mutation.data : undefined);

  const invitationRedirect = outcome?.invitationRedirect ?? null;
  const returnTo = outcome?.returnTo ?? null;
  const succeeded = outcome !== undefined;
  useEffect(() => {
    if (!succeeded) return;
    if (invitationRedirect === null) {
      void navigate(returnTo ?? DEFAULT_SIGNED_IN_PATH, { replace: true });
      return;
    }
    // Spec §2: a moment to read that the invitation comes next, then the accept page.
    const timer = setTimeout(
      () => void navigate(invitationRedirect, { replace: true }),
      ACCEPT_REDIRECT_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [succeeded, invitationRedirect, returnTo, navigate]);

  if (mutation.isError) {
    // Spec §2: a failed return shows the generic error, except the session problems the spec
    // names (state mismatch, missing or broken tokens).
    const error: unknown = mutation.error;
    return (
      <AuthOutcome
        severity="error"
        message={isSessionError(error) ? errorText(error) : t('errors.generic')}
        action={<SignInButton />}
      />
    );
  }
  if (secondFactor !== undefined && afterSecondFactor === null) {
    return (
      <SecondFactorForm
        challenge={secondFactor}
        identityProvider
        onCancel={() => void navigate('/auth/signin', { replace: true })}
        onSignedIn={(claims) =>
          setAfterSecondFactor(oauthSignedInOutcome(claims, mutation.data?.returnTo ?? null))
        }
      />
    );
  }
  if (succeeded && invitationRedirect !== null) {
    return <PendingStatus text={t('auth.callback.invitation')} />;
  }
  return <PendingStatus text={t('auth.callback.pending')} />;
}

/** /auth/callback?code&state (or ?error&error_description): the return from a social provider. */
export function OAuthCallbackPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const description = searchParams.get('error_description');
  const providerError = searchParams.get('error');
  const code = searchParams.get('code');
  const state = searchParams.get('state');

  let body;
  if (description !== null && description.trim() !== '') {
    // The provider's own explanation (e.g. the user cancelled): shown as it came.
    body = <AuthOutcome severity="error" message={description} action={<SignInButton />} />;
  } else if (providerError !== null || code === null || state === null) {
    body = <AuthOutcome severity="error" message={t('errors.generic')} action={<SignInButton />} />;
  } else {
    body = <CodeExchange code={code} state={state} />;
  }
  return <AuthCard title={t('auth.callback.title')}>{body}</AuthCard>;
}
