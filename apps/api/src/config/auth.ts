import { z } from 'zod';
import { bool, csv, invalid, type Base } from './env.js';

/** Accounts: sign-up, token lifetimes, sign-in throttling and social sign-in (OpenID Connect). */
export const authEnv = z.object({
  SIGNUP_MODE: z.enum(['open', 'invitation']).default('open'),
  SIGNUP_GLOBAL_SCOPE: bool.default(true),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  VERIFICATION_CODE_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  RESET_CODE_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  SIGNIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  SIGNIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
  SIGNIN_FAILURE_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
  OAUTH_REDIRECT_URLS: csv.optional(),
  OIDC_GOOGLE_ISSUER: z.url().optional(),
  OIDC_GOOGLE_CLIENT_ID: z.string().optional(),
  OIDC_GOOGLE_CLIENT_SECRET: z.string().optional(),
  OIDC_GOOGLE_NAME: z.string().default('Google'),
  OIDC_MICROSOFT_ISSUER: z.url().optional(),
  OIDC_MICROSOFT_CLIENT_ID: z.string().optional(),
  OIDC_MICROSOFT_CLIENT_SECRET: z.string().optional(),
  OIDC_MICROSOFT_NAME: z.string().default('Microsoft'),
  OIDC_ALLOW_HTTP: bool.default(false),
});

type AuthEnv = z.output<typeof authEnv>;

/** A social sign-in provider, enabled by its issuer. */
export type OidcProviderConfig = NonNullable<ReturnType<typeof oidcProvider>>;

export function authConfig(e: AuthEnv, base: Pick<Base, 'publicUrl'>) {
  const providers = [oidcProvider(e, 'google'), oidcProvider(e, 'microsoft')].filter(
    (provider) => provider !== null,
  );
  return {
    auth: {
      signupMode: e.SIGNUP_MODE,
      signupGlobalScope: e.SIGNUP_GLOBAL_SCOPE,
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlMs: e.REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60_000,
      verificationCodeTtlMs: e.VERIFICATION_CODE_TTL_HOURS * 60 * 60_000,
      resetCodeTtlMs: e.RESET_CODE_TTL_MINUTES * 60_000,
      signinMaxFailuresPerAccount: e.SIGNIN_MAX_FAILURES_PER_ACCOUNT,
      signinMaxFailuresPerIp: e.SIGNIN_MAX_FAILURES_PER_IP,
      signinFailureWindowMs: e.SIGNIN_FAILURE_WINDOW_MS,
      oauthRedirectUrls: e.OAUTH_REDIRECT_URLS ?? [`${base.publicUrl}/auth/callback`],
      providers,
      allowHttpIssuers: e.OIDC_ALLOW_HTTP,
    },
  };
}

function oidcProvider(e: AuthEnv, id: 'google' | 'microsoft') {
  const [issuer, clientId, clientSecret, name] =
    id === 'google'
      ? [
          e.OIDC_GOOGLE_ISSUER,
          e.OIDC_GOOGLE_CLIENT_ID,
          e.OIDC_GOOGLE_CLIENT_SECRET,
          e.OIDC_GOOGLE_NAME,
        ]
      : [
          e.OIDC_MICROSOFT_ISSUER,
          e.OIDC_MICROSOFT_CLIENT_ID,
          e.OIDC_MICROSOFT_CLIENT_SECRET,
          e.OIDC_MICROSOFT_NAME,
        ];
  if (!issuer) return null;
  if (!clientId || !clientSecret) {
    const prefix = `OIDC_${id.toUpperCase()}`;
    throw invalid(
      `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET`,
      `required with ${prefix}_ISSUER`,
    );
  }
  return { id, name, issuer, clientId, clientSecret };
}
