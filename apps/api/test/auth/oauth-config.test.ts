import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_ONLY_MESSAGE } from '../../src/auth/oauth/oauth-accounts.js';
import { createCode } from '../../src/auth/one-time-codes.js';
import { purgeOauthJob } from '../../src/auth/oauth/purge-oauth.job.js';
import { insertUser } from '../../src/users/users.repository.js';
import { startOAuthTestEnv, type OAuthTestEnv } from '../helpers/oauth-test-env.js';
import { startTestServer } from '../helpers/test-server.js';

describe('GET /auth/providers', () => {
  it.each([
    ['none', {}, []],
    [
      'both, with their configured names',
      {
        OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
        OIDC_GOOGLE_CLIENT_ID: 'g',
        OIDC_GOOGLE_CLIENT_SECRET: 'gs',
        OIDC_MICROSOFT_ISSUER: 'https://keycloak.example/realms/raccolta',
        OIDC_MICROSOFT_CLIENT_ID: 'k',
        OIDC_MICROSOFT_CLIENT_SECRET: 'ks',
        OIDC_MICROSOFT_NAME: 'Keycloak',
      },
      [
        { id: 'google', name: 'Google' },
        { id: 'microsoft', name: 'Keycloak' },
      ],
    ],
    [
      'only the one configured',
      {
        OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
        OIDC_GOOGLE_CLIENT_ID: 'g',
        OIDC_GOOGLE_CLIENT_SECRET: 'gs',
      },
      [{ id: 'google', name: 'Google' }],
    ],
  ])('lists %s', async (_label, env: Record<string, string>, providers) => {
    const server = await startTestServer(env);
    try {
      const res = await server.app.inject({ url: '/api/auth/providers' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ providers });
    } finally {
      await server.close();
    }
  });
});

describe('social sign-in when sign-up is by invitation only', () => {
  let env: OAuthTestEnv;
  beforeAll(async () => {
    env = await startOAuthTestEnv({ SIGNUP_MODE: 'invitation' });
  });
  afterAll(() => env.close());

  it('refuses to create an account', async () => {
    const signIn = await env.signIn();
    expect(Object.fromEntries(signIn.url.searchParams)).toEqual({
      error: 'access_denied',
      error_description: INVITATION_ONLY_MESSAGE,
      state: signIn.attempt.state,
    });
    expect(await env.server.ctx.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('lets in the owner of an existing account, and again once linked', async () => {
    const invited = await insertUser(
      env.server.ctx.db,
      {
        email: 'alice@example.test',
        emailVerified: false,
        username: 'alice',
        kind: 'standard',
        teamId: null,
        nickname: 'Alice',
        passwordHash: null,
        scope: 'team',
        locale: 'en',
        signUpMethod: 'invitation',
      },
      Date.now(),
    );
    for (let i = 0; i < 2; i++) {
      const signIn = await env.signIn();
      expect(signIn.url.searchParams.get('code')).toBeTruthy();
    }
    const identities = await env.server.ctx.db.selectFrom('user_identities').selectAll().execute();
    expect(identities).toMatchObject([{ provider: 'google', user_id: invited.id }]);
    const users = await env.server.ctx.db
      .selectFrom('users')
      .select(['id', 'email_verified'])
      .execute();
    expect(users).toEqual([{ id: invited.id, email_verified: 1 }]);
  });
});

describe('oauth.purge job', () => {
  it('deletes expired logins and codes, keeps live ones and other codes', async () => {
    const server = await startTestServer();
    try {
      const { db } = server.ctx;
      const now = Date.now();
      const tx = (id: string, expiresAt: number) => ({
        id,
        provider: 'google',
        client_redirect_uri: 'http://localhost:3000/auth/callback',
        client_state: 's',
        client_code_challenge: 'c'.repeat(43),
        provider_state: `state-${id}`,
        provider_nonce: 'n',
        provider_code_verifier: 'v',
        locale: 'en',
        expires_at: expiresAt,
        created_at: expiresAt - 600_000,
      });
      await db
        .insertInto('oauth_transactions')
        .values([tx('old', now - 1), tx('live', now + 60_000)])
        .execute();
      const user = await insertUser(
        db,
        {
          email: 'p@example.test',
          emailVerified: true,
          username: 'p.user',
          kind: 'standard',
          teamId: null,
          nickname: null,
          passwordHash: null,
          scope: 'global',
          locale: 'en',
          signUpMethod: 'google',
        },
        now,
      );
      const past = now - 120_000;
      await createCode(db, { userId: user.id, purpose: 'oauth_code', ttlMs: 60_000 }, past);
      await createCode(db, { userId: user.id, purpose: 'oauth_code', ttlMs: 60_000 }, now);
      await createCode(db, { userId: user.id, purpose: 'verify_email', ttlMs: 60_000 }, past);

      const run = purgeOauthJob.prepare({});
      const job = {
        id: 'j',
        queue: purgeOauthJob.queue,
        attempt: 1,
        maxAttempts: 3,
        createdAt: now,
        signal: new AbortController().signal,
      };
      await run({ db, clock: () => now }, job);

      const left = await db.selectFrom('oauth_transactions').select('id').execute();
      expect(left).toEqual([{ id: 'live' }]);
      const codes = await db
        .selectFrom('one_time_codes')
        .select(['purpose', 'expires_at'])
        .orderBy('purpose')
        .execute();
      expect(codes).toEqual([
        { purpose: 'oauth_code', expires_at: now + 60_000 },
        { purpose: 'verify_email', expires_at: past + 60_000 },
      ]);
    } finally {
      await server.close();
    }
  });
});
