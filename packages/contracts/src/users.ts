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

/** One signed-in device of the user: a refresh-token family (GET /users/@me/sessions). */
export const sessionSchema = z.object({
  sessionId: z.string().min(1),
  /** The device's browser ("Firefox") and system ("Android"); null when not recognised. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  /** The session of the access token that asked. */
  current: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;

/** Live sessions only (not signed out, not expired), the most recently used first. */
export const sessionsResponseSchema = z.object({ sessions: z.array(sessionSchema) });
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

/** POST /users/@me/sessions/revoke-others: how many sessions ended. */
export const revokeOtherSessionsResponseSchema = z.object({ revoked: z.number().int().min(0) });
export type RevokeOtherSessionsResponse = z.infer<typeof revokeOtherSessionsResponseSchema>;
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
