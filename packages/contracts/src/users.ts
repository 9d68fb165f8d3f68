import { z } from 'zod';
import { USER_SCOPES } from './constants.js';

/** The user and session shapes the API answers with (spec §3). Absent values are null. */

export const userScopeSchema = z.enum(USER_SCOPES);

export const userSchema = z.object({
  userId: z.uuid(),
  /** `global` may create teams; invited and internal accounts are `team`. */
  userScope: userScopeSchema,
  /** Null for internal members, who have no e-mail. */
  email: z.string().nullable(),
  username: z.string().nullable(),
  nickname: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  /** Null means the web app draws a generated avatar. */
  avatarUrl: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/** GET and PUT /users/@me. */
export const meResponseSchema = userSchema;
export type MeResponse = User;

// Session tokens
/** A sign-in or refresh answer that lacks any of these resets the session (spec §5, Tokens). */
const tokenSchema = z.string({ error: 'tokensMissing' }).min(1, { error: 'tokensMissing' });

export const tokenSetSchema = z.object(
  {
    IdToken: tokenSchema,
    TokenType: tokenSchema,
    AccessToken: tokenSchema,
    /** Seconds until the access token expires. */
    ExpiresIn: z.number({ error: 'tokensMissing' }).int({ error: 'tokensMissing' }).positive({
      error: 'tokensMissing',
    }),
    /** Present on sign-in; a refresh answer may leave it out and the old one stays valid. */
    RefreshToken: tokenSchema.optional(),
  },
  { error: 'tokensMissing' },
);
export type TokenSet = z.infer<typeof tokenSetSchema>;

/** POST /auth/signin, /auth/new-password and /auth/refresh. */
export const authResultResponseSchema = z.object({ result: tokenSetSchema });
export type AuthResultResponse = z.infer<typeof authResultResponseSchema>;

/** The `data` of the newPasswordRequired error, sent back with POST /auth/new-password. */
export const newPasswordRequiredDataSchema = z.object({
  session: z.string(),
  teamId: z.uuid(),
  username: z.string(),
});
export type NewPasswordRequiredData = z.infer<typeof newPasswordRequiredDataSchema>;
