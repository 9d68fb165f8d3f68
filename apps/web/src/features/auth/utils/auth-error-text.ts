import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/error-text';
import { isSessionError, type SessionErrorCode } from '../../../lib/auth/session/token-storage';

function sessionErrorText(t: TFunction, code: SessionErrorCode): string {
  switch (code) {
    case 'tokensMissing':
      return t('validation.tokensMissing');
    case 'invalidIdToken':
      return t('auth.errors.invalidIdToken');
    case 'alreadySignedIn':
      return t('auth.errors.alreadySignedIn');
    case 'oauthStateMismatch':
      return t('auth.errors.oauthStateMismatch');
  }
}

/** errorText plus the session problems found in the browser (spec §5 "Tokens", §8). */
export function authErrorText(t: TFunction, error: unknown): string {
  return isSessionError(error) ? sessionErrorText(t, error.code) : errorText(t, error);
}

export function useAuthErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback((error: unknown) => authErrorText(t, error), [t]);
}
