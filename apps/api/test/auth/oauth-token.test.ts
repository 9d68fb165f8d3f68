import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startOAuthTestEnv,
  WEB_CALLBACK,
  type OAuthTestEnv,
  type SignInResult,
} from '../helpers/oauth-test-env.js';

describe('POST /oauth2/token', () => {
  let env: OAuthTestEnv;
  beforeAll(async () => {
    env = await startOAuthTestEnv();
  });
  afterAll(() => env.close());

  function request(signIn: SignInResult, overrides: Record<string, string> = {}) {
    return {
      grant_type: 'authorization_code',
      code: signIn.url.searchParams.get('code') ?? '',
      code_verifier: signIn.attempt.verifier,
      redirect_uri: WEB_CALLBACK,
      client_id: 'raccolta-web',
      ...overrides,
    };
  }

  async function expectUnauthorized(res: Response) {
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
  }

  const sessionCount = async () =>
    (await env.server.ctx.db.selectFrom('refresh_tokens').select('id').execute()).length;

  it('answers the token set once; the same code again is refused', async () => {
    const signIn = await env.signIn();
    const first = await env.exchange(request(signIn));
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const { result } = (await first.json()) as { result: Record<string, unknown> };
    expect(result).toMatchObject({ TokenType: 'Bearer', ExpiresIn: 3600 });
    expect(Object.keys(result).sort()).toEqual([
      'AccessToken',
      'ExpiresIn',
      'IdToken',
      'RefreshToken',
      'TokenType',
    ]);
    const sessions = await sessionCount();
    await expectUnauthorized(await env.exchange(request(signIn)));
    expect(await sessionCount()).toBe(sessions);
  });

  it('refuses a verifier that does not match the challenge, and the code is then used up', async () => {
    const signIn = await env.signIn();
    const sessions = await sessionCount();
    const wrong = env.newAttempt().verifier;
    await expectUnauthorized(await env.exchange(request(signIn, { code_verifier: wrong })));
    await expectUnauthorized(await env.exchange(request(signIn)));
    expect(await sessionCount()).toBe(sessions);
  });

  it('refuses a code presented with another redirect URI', async () => {
    const signIn = await env.signIn();
    const other = { redirect_uri: 'http://localhost:3000/auth/other' };
    await expectUnauthorized(await env.exchange(request(signIn, other)));
  });

  it('refuses a code after its minute is up', async () => {
    const signIn = await env.signIn();
    env.advanceClock(61_000);
    try {
      await expectUnauthorized(await env.exchange(request(signIn)));
    } finally {
      env.advanceClock(-61_000);
    }
  });

  it('refuses a code that was never issued', async () => {
    const signIn = await env.signIn();
    await expectUnauthorized(await env.exchange(request(signIn, { code: 'x'.repeat(43) })));
  });

  it.each([
    ['a verifier under 43 characters', { code_verifier: 'a'.repeat(42) }],
    ['a verifier over 128 characters', { code_verifier: 'a'.repeat(129) }],
    ['a verifier with reserved characters', { code_verifier: `${'a'.repeat(42)}/` }],
    ['another grant type', { grant_type: 'password' }],
    ['another client', { client_id: 'someone-else' }],
  ])('answers 400 invalidInput for %s, and the code stays usable', async (_label, overrides) => {
    const signIn = await env.signIn();
    const res = await env.exchange(request(signIn, overrides));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errorCode: 'invalidInput' });
    expect((await env.exchange(request(signIn))).status).toBe(200);
  });

  it('accepts the form-encoded request standard OAuth clients send', async () => {
    const signIn = await env.signIn();
    const res = await fetch(`${env.apiBase}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams(request(signIn)),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: { TokenType: 'Bearer' } });
  });
});
