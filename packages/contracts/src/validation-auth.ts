import { z } from 'zod';
import {
  bodySchema,
  emailSchema,
  firstNameSchema,
  idSchema,
  isPlainText,
  lastNameSchema,
  linkEmailSchema,
  linkParamSchema,
  localeSchema,
  opaqueStringSchema,
  passwordSchema,
  preferredNameSchema,
  signInIdentifierSchema,
  signInPasswordSchema,
  teamRefSchema,
} from './validation-fields.js';
import { USERNAME_MAX_LENGTH } from './constants.js';

/** Request bodies of the /auth and /users calls (spec §7) and the forms that produce them. */

// Sign-up and sign-in
export const signUpFormSchema = bodySchema({
  email: emailSchema,
  password: passwordSchema,
  nickname: preferredNameSchema,
});
export type SignUpForm = z.infer<typeof signUpFormSchema>;

export const signUpRequestSchema = signUpFormSchema.extend({ locale: localeSchema });
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

export const signInFormSchema = bodySchema({
  identifier: signInIdentifierSchema,
  password: signInPasswordSchema,
});
export type SignInForm = z.infer<typeof signInFormSchema>;

/**
 * POST /auth/signin: an e-mail or a username, never both. Internal members add `team` (a team id
 * or alias) because their usernames are unique only within a team.
 */
export const signInRequestSchema = bodySchema({
  email: emailSchema.optional(),
  username: z
    .string({ error: 'usernameRequired' })
    .trim()
    .min(1, { error: 'usernameRequired', abort: true })
    .max(USERNAME_MAX_LENGTH, { error: 'usernameLong', abort: true })
    .refine(isPlainText, { error: 'invalidInput' })
    .optional(),
  password: signInPasswordSchema,
  team: teamRefSchema.optional(),
})
  .refine((body) => body.email !== undefined || body.username !== undefined, {
    error: 'emailUsernameRequired',
    path: ['email'],
  })
  .refine((body) => body.email === undefined || body.username === undefined, {
    error: 'emailOrUsernameOnly',
    path: ['username'],
  });
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** POST /auth/new-password, answering the newPasswordRequired error's data. */
export const newPasswordRequestSchema = bodySchema({
  newPassword: passwordSchema,
  session: opaqueStringSchema(),
  teamId: idSchema,
  username: opaqueStringSchema('usernameRequired', USERNAME_MAX_LENGTH),
});
export type NewPasswordRequest = z.infer<typeof newPasswordRequestSchema>;

// Password reset
export const forgotPasswordRequestSchema = bodySchema({ email: emailSchema });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

/** POST /auth/resend-verification: a fresh verification link for an address not yet verified. */
export const resendVerificationRequestSchema = bodySchema({ email: emailSchema });
export type ResendVerificationRequest = z.infer<typeof resendVerificationRequestSchema>;

/** The query of /auth/reset; a link without both parameters is invalidResetLink. */
export const resetLinkQuerySchema = bodySchema({
  email: linkEmailSchema('invalidResetLink'),
  code: linkParamSchema('invalidResetLink'),
});

export const resetPasswordRequestSchema = resetLinkQuerySchema.extend({
  newPassword: passwordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

// Only a form whose two fields are strings can be compared; other failures are reported per field.
const bothPasswordsAreStrings = (payload: { value: unknown }): boolean =>
  isRecord(payload.value) &&
  typeof payload.value.password === 'string' &&
  typeof payload.value.confirmPassword === 'string';

/**
 * A password typed twice: the reset-password form and the set-new-password form. The confirmation
 * is checked even while the password breaks the policy, so both errors show at once; while the
 * password is missing, too short or too long, only that is reported.
 */
export const resetPasswordFormSchema = bodySchema({
  password: passwordSchema,
  confirmPassword: z.string({ error: 'confirmPasswordRequired' }).trim(),
})
  .refine((form) => form.password === '' || form.confirmPassword !== '', {
    error: 'confirmPasswordRequired',
    path: ['confirmPassword'],
    when: bothPasswordsAreStrings,
  })
  .refine((form) => form.confirmPassword === '' || form.confirmPassword === form.password, {
    error: 'passwordMatch',
    path: ['confirmPassword'],
    when: bothPasswordsAreStrings,
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

export const newPasswordFormSchema = resetPasswordFormSchema;
export type NewPasswordForm = ResetPasswordForm;

// E-mail verification
/** The query of /auth/verify and the body of POST /auth/verify-email. */
export const verifyEmailRequestSchema = bodySchema({
  code: linkParamSchema('invalidVerification'),
  email: linkEmailSchema('invalidVerification'),
  username: linkParamSchema('invalidVerification'),
});
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;
export const verifyLinkQuerySchema = verifyEmailRequestSchema;

// Tokens
export const refreshRequestSchema = bodySchema({ refreshToken: opaqueStringSchema() });
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

export const signOutRequestSchema = bodySchema({ accessToken: opaqueStringSchema() });
export type SignOutRequest = z.infer<typeof signOutRequestSchema>;

// Profile
/** PUT /users/@me. The nickname follows the sign-up rules, so whatever was accepted there saves. */
export const updateProfileRequestSchema = bodySchema({
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  nickname: preferredNameSchema,
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;
