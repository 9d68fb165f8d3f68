import { z } from 'zod';

/**
 * Second factors (TOTP, recovery codes, passkeys) and the sign-in second step. A password or
 * provider sign-in of an account with a factor answers secondFactorRequired (403) with this data;
 * POST /auth/second-factor answers it with one of the methods and gets the token set.
 */

export const SECOND_FACTOR_METHODS = ['totp', 'webauthn', 'recovery'] as const;
export const secondFactorMethodSchema = z.enum(SECOND_FACTOR_METHODS);
export type SecondFactorMethod = z.infer<typeof secondFactorMethodSchema>;

/** The `data` of the secondFactorRequired error. */
export const secondFactorRequiredDataSchema = z.object({
  /** One-time, 5 minutes, bound to the account that gave the right password. */
  challenge: z.string(),
  methods: z.array(secondFactorMethodSchema),
  /** PublicKeyCredentialRequestOptionsJSON when the account has passkeys. */
  webauthn: z.looseObject({ challenge: z.string() }).optional(),
});
export type SecondFactorRequiredData = z.infer<typeof secondFactorRequiredDataSchema>;

export const passkeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** GET /users/@me/second-factors. */
export const secondFactorsResponseSchema = z.object({
  /** False for internal contributors (no e-mail): they cannot enrol. */
  allowed: z.boolean(),
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.array(passkeySchema),
});
export type SecondFactorsResponse = z.infer<typeof secondFactorsResponseSchema>;

/** POST /users/@me/totp: a new secret, not active until confirmed. */
export const totpEnrolmentResponseSchema = z.object({
  secret: z.string(),
  /** otpauth://totp/… for the QR code. */
  uri: z.string(),
});
export type TotpEnrolmentResponse = z.infer<typeof totpEnrolmentResponseSchema>;

/** Recovery codes, answered once: when the first factor is added and when new ones are made. */
export const recoveryCodesResponseSchema = z.object({
  recoveryCodes: z.array(z.string()).optional(),
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/**
 * Changing how one signs in (adding an authenticator app or a passkey, removing a passkey, new
 * recovery codes) needs a recent sign-in: within this time of the session's sign-in or of its last
 * POST /users/@me/reauthenticate. Otherwise 403 reauthenticationRequired with
 * ReauthenticationRequiredData.
 */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

export const REAUTHENTICATION_METHODS = ['password', 'totp'] as const;
export const reauthenticationMethodSchema = z.enum(REAUTHENTICATION_METHODS);
export type ReauthenticationMethod = z.infer<typeof reauthenticationMethodSchema>;

/**
 * The `data` of reauthenticationRequired: how this account can confirm it is its owner. Empty
 * (an account signed in only through a provider, without an authenticator app): sign in again.
 */
export const reauthenticationRequiredDataSchema = z.object({
  methods: z.array(reauthenticationMethodSchema),
});
export type ReauthenticationRequiredData = z.infer<typeof reauthenticationRequiredDataSchema>;
