// No Zod here: the web app's first page reads error codes without downloading the schemas.
/**
 * Every errorCode the API can answer with (spec §8), mapped to its HTTP status.
 * Flow errors follow docs/decisions.md: newPasswordRequired 403, newInvitedAccountRequired 409.
 */
export const ERROR_STATUS = {
  accountAliasAlreadyExists: 409,
  alreadyExists: 409,
  alreadySignedUp: 409,
  alreadySubscribed: 409,
  authorizationRequired: 401,
  cannotChangeAlias: 400,
  cannotChangePassword: 400,
  cannotConfirmPassword: 400,
  cannotVerifyEmail: 400,
  cannotSendInvitationEmail: 502,
  cannotUnsubscribe: 404,
  checksumMismatch: 460,
  downloadExpired: 410,
  downloadNotReady: 409,
  emailMismatch: 403,
  emailRequired: 400,
  expiredToken: 410,
  expiredVerificationCode: 410,
  fileTooLarge: 413,
  fileTypeNotAllowed: 415,
  forbidden: 403,
  generic: 500,
  invalidAcceptToken: 400,
  invalidRejectToken: 400,
  invalidDownload: 400,
  invalidUnsubscribe: 400,
  invalidVerification: 400,
  invalidResetLink: 400,
  invalidSubscriptionConfirmation: 400,
  invalidAuthorization: 401,
  invalidCredentials: 400,
  invalidEmail: 400,
  invalidInput: 400,
  invalidPassword: 400,
  invalidRequest: 400,
  invalidSorting: 400,
  invalidTeamMember: 400,
  invalidTeamName: 400,
  invitationAlreadyHandled: 409,
  invitationNotFound: 404,
  newInvitedAccountRequired: 409,
  newPasswordRequired: 403,
  nothingToDownload: 400,
  nicknameAlreadyExists: 409,
  noConnection: 503,
  notAuthorized: 401,
  notConfirmed: 403,
  notFound: 404,
  notLoggedIn: 401,
  passwordRequired: 400,
  shortPassword: 400,
  usernameRequired: 400,
  quotaExceededAliases: 403,
  quotaExceededStorage: 413,
  restrictedAccess: 403,
  shortUsername: 400,
  termsRequired: 400,
  tooManyRequests: 429,
  uploadExpired: 410,
  uploadOffsetMismatch: 409,
  userAlreadyExists: 409,
  userNotFound: 404,
  wrongVerificationCode: 400,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}
