import { isDuplicateKind, isErrorCode } from '@raccolta/contracts';
import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from './api-client';

// Social providers are shown by their brand name, which needs no translation; the API sends ids.
const PROVIDER_KEYS = { email_password: 'providers.email_password' } as const;
const PROVIDER_BRANDS: Record<string, string> = { google: 'Google', microsoft: 'Microsoft' };

function providerName(t: TFunction, provider: string): string {
  if (Object.hasOwn(PROVIDER_KEYS, provider)) {
    return t(PROVIDER_KEYS[provider as keyof typeof PROVIDER_KEYS]);
  }
  return Object.hasOwn(PROVIDER_BRANDS, provider)
    ? (PROVIDER_BRANDS[provider] ?? provider)
    : provider;
}

/** The translated text of anything thrown: an ApiError, an errorCode, or else the generic text. */
export function errorText(t: TFunction, error: unknown): string {
  if (isApiError(error)) {
    const provider = error.data?.provider;
    if (error.errorCode === 'alreadySignedUp' && typeof provider === 'string') {
      return t('errorDetails.alreadySignedUpWith', { provider: providerName(t, provider) });
    }
    const duplicate = error.data?.duplicate;
    if (error.errorCode === 'alreadyExists' && isDuplicateKind(duplicate)) {
      return t(`errorDetails.duplicate.${duplicate}`);
    }
    return t(`errors.${error.errorCode}`);
  }
  if (isErrorCode(error)) return t(`errors.${error}`);
  return t('errors.generic');
}

export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback((error: unknown) => errorText(t, error), [t]);
}
