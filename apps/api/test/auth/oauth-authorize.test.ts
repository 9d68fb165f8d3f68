import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthTestEnv, WEB_CALLBACK, type OAuthTestEnv } from '../helpers/oauth-test-env.js';
import { createUserAgent, type UserAgent } from '../helpers/user-agent.js';

describe('GET /oauth2/authorize and the provider callback', () => {
  let env: OAuthTestEnv;
  beforeAll(async () => {
    env = await startOAuthTestEnv();
  });
  afterAll(() => env.close());

  const transactions = () =>
    env.server.ctx.db.selectFrom('oauth_transactions').selectAll().execute();
  const authorize = (params: Record<string, string | null> = {}) => {
    const url = new URL(env.authorizeUrl(env.newAttempt(), params));
    return env.server.app.inject({ url: `${url.pathname}${url.search}` });
  };

  it('stores the login, binds the browser with a cookie and sends it to the provider', async () => {
    const attempt = env.newAttempt();
    const url = new URL(env.authorizeUrl(attempt));
    const before = Date.now();
    const res = await env.server.app.inject({ url: `${url.pathname}${url.search}` });
    expect(res.statusCode).toBe(302);

    const location = new URL(res.headers.location as string);
    expect(location.origin).toBe(env.op.issuer);
    const sent = Object.fromEntries(location.searchParams);
    expect(sent).toMatchObject({
      client_id: env.op.clientId,
      response_type: 'code',
      redirect_uri: `${env.apiBase}/oauth2/callback/google`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      ui_locales: 'it',
    });
    expect(sent.state).toHaveLength(32);
    expect(sent.nonce).toBeTruthy();
    expect(sent.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [tx] = await transactions();
    expect(tx).toMatchObject({
      provider: 'google',
      client_redirect_uri: WEB_CALLBACK,
      client_state: attempt.state,
      client_code_challenge: attempt.challenge,
      provider_state: sent.state,
      provider_nonce: sent.nonce,
      locale: 'it',
    });
    expect(tx?.expires_at).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(tx?.expires_at).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
    expect(res.headers['set-cookie']).toBe(
      `raccolta_oauth=${tx?.id ?? ''}; Max-Age=600; Path=/api/oauth2; HttpOnly; SameSite=Lax`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    await env.server.ctx.db.deleteFrom('oauth_transactions').execute();
  });

  it.each([
    ['not on the list', { redirect_uri: 'https://evil.example/auth/callback' }],
    ['on the list but for a prefix match', { redirect_uri: `${WEB_CALLBACK}/x` }],
    ['missing', { redirect_uri: null }],
    ['fine, but the client unknown', { client_id: 'someone-else' }],
  ])('answers 400 without redirecting when the redirect URI is %s', async (_label, params) => {
    const res = await authorize(params);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidRequest' });
    expect(await transactions()).toEqual([]);
  });

  it.each([
    ['an unconfigured provider', { identity_provider: 'microsoft' }, 'invalid_request'],
    ['an unknown provider', { identity_provider: 'myspace' }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no PKCE method', { code_challenge_method: null }, 'invalid_request'],
    ['a short code challenge', { code_challenge: 'abc' }, 'invalid_request'],
    ['a scope without openid', { scope: 'email profile' }, 'invalid_scope'],
  ])('redirects back with an error for %s', async (_label, params, error) => {
    const attempt = env.newAttempt();
    const url = new URL(env.authorizeUrl(attempt, params));
    const res = await env.server.app.inject({ url: `${url.pathname}${url.search}` });
    expect(res.statusCode).toBe(302);
    const back = new URL(res.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(WEB_CALLBACK);
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('error_description')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe(attempt.state);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await transactions()).toEqual([]);
  });

  it.each([
    ['missing', null],
    ['over 512 characters', 'x'.repeat(513)],
  ])('redirects back with invalid_request and no state when the state is %s', async (_l, state) => {
    const res = await authorize({ state });
    expect(res.statusCode).toBe(302);
    const back = new URL(res.headers.location as string);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.has('state')).toBe(false);
  });

  /** A login driven up to the moment the provider sends the browser to the API's callback. */
  async function atCallback(ua: UserAgent = createUserAgent()) {
    const attempt = env.newAttempt();
    const { url } = await ua.follow(env.authorizeUrl(attempt), {
      stopAt: `${env.apiBase}/oauth2/callback/`,
    });
    return { url, ua, attempt };
  }

  async function expectRefused(res: Response) {
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.json()).toMatchObject({ errorCode: 'invalidRequest' });
  }

  it('refuses a callback in a browser that did not start the login, or with a tampered state', async () => {
    const mine = await atCallback();
    const other = await atCallback();

    // Another browser (no cookie): a link planted by someone else.
    await expectRefused(await createUserAgent().get(mine.url));
    // This browser, but its cookie names another login.
    const stranger = createUserAgent();
    for (const [key, value] of other.ua.cookies) stranger.cookies.set(key, value);
    await expectRefused(await stranger.get(mine.url));
    // The right browser with the state changed.
    const tampered = new URL(mine.url);
    tampered.searchParams.set('state', 'y'.repeat(32));
    await expectRefused(await mine.ua.get(tampered.href));

    // None of the refusals used the login up: the real browser still completes it.
    const cookie = [...mine.ua.cookies].find(([key]) => key.endsWith('\traccolta_oauth'));
    const done = await mine.ua.get(mine.url);
    expect(done.status).toBe(302);
    const back = new URL(done.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe(mine.attempt.state);
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(done.headers.get('set-cookie')).toBe(
      'raccolta_oauth=; Max-Age=0; Path=/api/oauth2; HttpOnly; SameSite=Lax',
    );

    // Single use: the same callback again, even with the cookie put back, is refused.
    if (cookie) mine.ua.cookies.set(...cookie);
    await expectRefused(await mine.ua.get(mine.url));
  });

  it('refuses a callback after the login expired (10 minutes)', async () => {
    const { url, ua } = await atCallback();
    env.advanceClock(10 * 60_000 + 1000);
    try {
      await expectRefused(await ua.get(url));
    } finally {
      env.advanceClock(-(10 * 60_000 + 1000));
    }
  });

  it('refuses a callback for another provider than the one the login started with', async () => {
    const { url, ua } = await atCallback();
    await expectRefused(await ua.get(url.replace('/callback/google', '/callback/microsoft')));
  });
});

describe('GET /oauth2/authorize with the provider down', () => {
  it('sends the browser back with temporarily_unavailable and stores nothing', async () => {
    const env = await startOAuthTestEnv();
    try {
      await env.op.close();
      const attempt = env.newAttempt();
      const url = new URL(env.authorizeUrl(attempt));
      const res = await env.server.app.inject({ url: `${url.pathname}${url.search}` });
      expect(res.statusCode).toBe(302);
      const back = new URL(res.headers.location as string);
      expect(back.searchParams.get('error')).toBe('temporarily_unavailable');
      expect(back.searchParams.get('state')).toBe(attempt.state);
      expect(
        await env.server.ctx.db.selectFrom('oauth_transactions').selectAll().execute(),
      ).toEqual([]);
    } finally {
      await env.server.close();
    }
  });
});
