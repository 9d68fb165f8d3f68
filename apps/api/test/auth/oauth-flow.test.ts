import type { TokenSet } from '@raccolta/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/auth/oauth/oauth.service.js';
import { insertUser } from '../../src/users/users.repository.js';
import {
  startOAuthTestEnv,
  WEB_CALLBACK,
  type OAuthTestEnv,
  type SignInResult,
} from '../helpers/oauth-test-env.js';
import { TEST_USER } from '../helpers/oidc-provider.js';

// Sign-in through a real oidc-provider: the browser's round trip, then the web app's code exchange.
describe('social sign-in', () => {
  let env: OAuthTestEnv;
  beforeAll(async () => {
    env = await startOAuthTestEnv();
  });
  afterAll(() => env.close());

  const db = () => env.server.ctx.db;

  async function tokensFor(signIn: SignInResult): Promise<TokenSet> {
    const code = signIn.url.searchParams.get('code');
    expect(code, signIn.url.href).toBeTruthy();
    const res = await env.exchange({
      grant_type: 'authorization_code',
      code: code ?? '',
      code_verifier: signIn.attempt.verifier,
      redirect_uri: WEB_CALLBACK,
      client_id: 'raccolta-web',
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: TokenSet }).result;
  }

  function usersWithEmail(email: string) {
    return db().selectFrom('users').selectAll().where('email', '=', email).execute();
  }

  it('creates a verified account on the first sign-in and returns tokens naming it', async () => {
    const signIn = await env.signIn();
    expect(`${signIn.url.origin}${signIn.url.pathname}`).toBe(WEB_CALLBACK);
    expect(signIn.url.searchParams.get('state')).toBe(signIn.attempt.state);
    expect(signIn.url.searchParams.get('error')).toBeNull();
    // authorize → provider /auth → interaction → /auth/:uid → API callback → web app
    expect(signIn.hops).toHaveLength(5);
    expect(env.op.interactions.at(-1)).toEqual({
      prompt: 'login',
      uiLocales: 'it',
      scope: 'openid email profile',
    });
    expect([...signIn.ua.cookies.keys()].some((k) => k.endsWith('\traccolta_oauth'))).toBe(false);
    expect(await db().selectFrom('oauth_transactions').selectAll().execute()).toEqual([]);

    const tokens = await tokensFor(signIn);
    const [user] = await usersWithEmail('alice@example.test');
    expect(user).toMatchObject({
      email_verified: 1,
      kind: 'standard',
      username: 'alice',
      password_hash: null,
      sign_up_method: 'google',
      scope: 'global',
      locale: 'it',
      nickname: 'Alice Example',
      first_name: 'Alice',
      last_name: 'Example',
    });
    expect(decodeJwt(tokens.IdToken)).toMatchObject({
      sub: user?.id,
      email: 'alice@example.test',
      email_verified: true,
      username: 'alice',
    });
    const identity = await db().selectFrom('user_identities').selectAll().execute();
    expect(identity).toMatchObject([
      { provider: 'google', subject: TEST_USER.sub, user_id: user?.id },
    ]);
    const refresh = await db().selectFrom('refresh_tokens').select('identity_provider').execute();
    expect(refresh).toEqual([{ identity_provider: 1 }]);

    const me = await env.server.app.inject({
      url: '/api/users/@me',
      headers: { authorization: `${tokens.TokenType} ${tokens.AccessToken}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'alice@example.test', nickname: 'Alice Example' });
  });

  it('signs the same person into the same account the next time', async () => {
    const [before] = await usersWithEmail('alice@example.test');
    const tokens = await tokensFor(await env.signIn());
    expect(decodeJwt(tokens.IdToken).sub).toBe(before?.id);
    expect(await usersWithEmail('alice@example.test')).toHaveLength(1);
    const identities = await db().selectFrom('user_identities').select('subject').execute();
    expect(identities).toEqual([{ subject: TEST_USER.sub }]);
  });

  it('links an existing e-mail/password account instead of making a second one', async () => {
    const existing = await insertUser(
      db(),
      {
        email: 'bob@example.test',
        emailVerified: true,
        username: 'bob',
        kind: 'standard',
        teamId: null,
        nickname: 'Bob',
        passwordHash: 'argon2-hash-kept',
        scope: 'team',
        locale: 'en',
        signUpMethod: 'email_password',
      },
      Date.now(),
    );
    env.op.setUser({
      sub: 'bob-sub',
      email: 'Bob@Example.test',
      email_verified: true,
      name: 'Robert',
    });
    const tokens = await tokensFor(await env.signIn());
    expect(decodeJwt(tokens.IdToken)).toMatchObject({ sub: existing.id, username: 'bob' });
    const users = await usersWithEmail('bob@example.test');
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      password_hash: 'argon2-hash-kept',
      sign_up_method: 'email_password',
      nickname: 'Bob',
    });
    const identity = await db()
      .selectFrom('user_identities')
      .selectAll()
      .where('subject', '=', 'bob-sub')
      .executeTakeFirst();
    expect(identity).toMatchObject({ provider: 'google', user_id: existing.id });
  });

  it('gives an unverified account to the mailbox owner: verified, and its password dropped', async () => {
    const squatted = await insertUser(
      db(),
      {
        email: 'carol@example.test',
        emailVerified: false,
        username: 'carol',
        kind: 'standard',
        teamId: null,
        nickname: 'Not Carol',
        passwordHash: 'someone-elses-password',
        scope: 'global',
        locale: 'en',
        signUpMethod: 'email_password',
      },
      Date.now(),
    );
    env.op.setUser({ sub: 'carol-sub', email: 'carol@example.test', email_verified: true });
    const tokens = await tokensFor(await env.signIn());
    expect(decodeJwt(tokens.IdToken)).toMatchObject({ sub: squatted.id, email_verified: true });
    const [user] = await usersWithEmail('carol@example.test');
    expect(user).toMatchObject({ email_verified: 1, password_hash: null });
  });

  it('sends the provider’s refusal back to the web app with its description', async () => {
    env.op.refuseNext({ error: 'access_denied', error_description: 'The user cancelled' });
    const signIn = await env.signIn();
    expect(Object.fromEntries(signIn.url.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The user cancelled',
      state: signIn.attempt.state,
    });
    expect(await db().selectFrom('oauth_transactions').selectAll().execute()).toEqual([]);
  });

  it.each([
    ['not verified', { sub: 'eve-sub', email: 'eve@example.test', email_verified: false }],
    ['missing', { sub: 'nomail-sub', name: 'No Mail' }],
  ])('refuses a provider e-mail that is %s', async (_label, user) => {
    env.op.setUser(user);
    const signIn = await env.signIn();
    expect(Object.fromEntries(signIn.url.searchParams)).toEqual({
      error: 'access_denied',
      error_description: MESSAGES.emailNotVerified,
      state: signIn.attempt.state,
    });
    expect(await usersWithEmail('eve@example.test')).toEqual([]);
    const identity = await db()
      .selectFrom('user_identities')
      .select('subject')
      .where('subject', '=', user.sub)
      .execute();
    expect(identity).toEqual([]);
  });
});

describe('social sign-in with claims only from userinfo', () => {
  it('reads the e-mail and names from userinfo when the ID token lacks them', async () => {
    const env = await startOAuthTestEnv({}, { conformIdTokenClaims: true });
    try {
      const signIn = await env.signIn();
      expect(signIn.url.searchParams.get('code')).toBeTruthy();
      const user = await env.server.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'alice@example.test')
        .executeTakeFirst();
      expect(user).toMatchObject({ email_verified: 1, nickname: 'Alice Example' });
    } finally {
      await env.close();
    }
  });
});
