import { z } from 'zod';
import { bodySchema, opaqueStringSchema, signInPasswordSchema } from './validation-fields.js';

/** Request bodies of the second-factor calls (POST /auth/second-factor, /users/@me/…). */

/** Six digits; spaces typed between groups are dropped. */
export const totpCodeSchema = z
  .string({ error: 'wrongSecondFactorCode' })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'wrongSecondFactorCode' }));

/** Recovery codes are shown as xxxxx-xxxxx; case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string({ error: 'wrongSecondFactorCode' })
  .transform((value) => value.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, { error: 'wrongSecondFactorCode' }));

/** A WebAuthn response as @simplewebauthn/browser produces it; checked by the server library. */
export const webauthnResponseSchema = z.looseObject(
  {
    id: opaqueStringSchema(),
    rawId: opaqueStringSchema(),
    type: z.literal('public-key', { error: 'invalidInput' }),
    response: z.looseObject({}, { error: 'invalidInput' }),
  },
  { error: 'invalidInput' },
);

/** POST /auth/second-factor: the challenge of secondFactorRequired and exactly one answer. */
export const secondFactorRequestSchema = bodySchema({
  challenge: opaqueStringSchema(),
  totp: totpCodeSchema.optional(),
  recoveryCode: recoveryCodeSchema.optional(),
  webauthn: webauthnResponseSchema.optional(),
}).refine(
  (body) =>
    [body.totp, body.recoveryCode, body.webauthn].filter((value) => value !== undefined).length ===
    1,
  { error: 'invalidInput', path: ['totp'] },
);
export type SecondFactorRequest = z.input<typeof secondFactorRequestSchema>;

export const totpConfirmRequestSchema = bodySchema({ code: totpCodeSchema });
export type TotpConfirmRequest = z.input<typeof totpConfirmRequestSchema>;

/** DELETE /users/@me/totp: the password or a current code. */
export const totpDisableRequestSchema = bodySchema({
  password: signInPasswordSchema.optional(),
  code: totpCodeSchema.optional(),
}).refine((body) => body.password !== undefined || body.code !== undefined, {
  error: 'passwordRequired',
  path: ['password'],
});
export type TotpDisableRequest = z.input<typeof totpDisableRequestSchema>;

export const passkeyNameSchema = z
  .string({ error: 'invalidInput' })
  .trim()
  .min(1, { error: 'invalidInput' })
  .max(64, { error: 'invalidInput' });

export const passkeyRegisterRequestSchema = bodySchema({
  name: passkeyNameSchema,
  response: webauthnResponseSchema,
});
export type PasskeyRegisterRequest = z.input<typeof passkeyRegisterRequestSchema>;

/** POST /users/@me/reauthenticate: exactly one of the password or a current authenticator code. */
export const reauthenticateRequestSchema = bodySchema({
  password: signInPasswordSchema.optional(),
  code: totpCodeSchema.optional(),
}).refine((body) => (body.password === undefined) !== (body.code === undefined), {
  error: 'passwordRequired',
  path: ['password'],
});
export type ReauthenticateRequest = z.input<typeof reauthenticateRequestSchema>;
