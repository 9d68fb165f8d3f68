/**
 * Every message key a validation schema of this package can put in a zod issue. The web app
 * translates these keys (English and Italian); the server returns them in 400 bodies. Keys named
 * in spec §5 keep their spec spelling; the others were invented where the spec gives only an
 * English sentence or no message at all (see docs/decisions.md).
 */
export const VALIDATION_MESSAGE_KEYS = [
  'aliasRequired',
  'aliasShort',
  'aliasLong',
  'policyAlias',
  'teamNameRequired',
  'teamNameShort',
  'teamNameLong',
  'teamDescriptionLong',
  'teamModeRequired',
  'collectionNameRequired',
  'collectionNameShort',
  'collectionNameLong',
  'collectionDescriptionLong',
  'collectionModeRequired',
  'invalidDeadline',
  'invalidTimeZone',
  'nicknameRequired',
  'nicknameShort',
  'nicknameLong',
  'policyNickname',
  'preferredNameRequired',
  'preferredNameLong',
  'firstNameRequired',
  'firstNameLong',
  'lastNameRequired',
  'lastNameLong',
  'usernameRequired',
  'usernameShort',
  'usernameLong',
  'policyUsername',
  'passwordRequired',
  'passwordShort',
  'passwordLong',
  'policyPassword',
  'passwordMatch',
  'samePassword',
  'confirmPasswordRequired',
  'emailRequired',
  'emailLong',
  'invalidEmail',
  'emailUsernameRequired',
  'emailOrUsernameOnly',
  'roleRequired',
  'localeRequired',
  'termsRequired',
  'acceptTermsRequired',
  'filterStartEndDateInvalid',
  'filterDateInvalid',
  'invalidSorting',
  'invalidResetLink',
  'invalidVerification',
  'invalidAcceptToken',
  'invalidRejectToken',
  'invalidUnsubscribe',
  'invalidSubscriptionConfirmation',
  'tokensMissing',
  'wrongSecondFactorCode',
  'invalidInput',
] as const;

export type ValidationMessageKey = (typeof VALIDATION_MESSAGE_KEYS)[number];

/**
 * English texts the spec gives word for word (but for the spelling “e-mail”, one across the app:
 * docs/decisions.md); the web app's English catalogue must match them.
 */
export const VALIDATION_MESSAGES_EN = {
  aliasRequired: 'Alias required',
  aliasShort: 'Alias must be at least 3 characters long',
  aliasLong: 'Alias is too long (max 30 characters)',
  policyAlias:
    'Alias supports just letters, numbers and hyphens but it cannot start or end with an hyphen.',
  acceptTermsRequired: 'You must accept Terms & Privacy Policy',
  invalidEmail: 'Invalid e-mail address',
  tokensMissing: 'It seems some tokens are missing',
} as const satisfies Partial<Record<ValidationMessageKey, string>>;

const KEY_SET: ReadonlySet<string> = new Set(VALIDATION_MESSAGE_KEYS);

export function isValidationMessageKey(value: unknown): value is ValidationMessageKey {
  return typeof value === 'string' && KEY_SET.has(value);
}
