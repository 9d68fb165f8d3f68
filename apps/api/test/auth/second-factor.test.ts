import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/users/users.repository.js';
import {
  createInternalMember,
  createTeam,
  createUser,
  TEST_PASSWORD,
} from '../helpers/factories.js';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  startOAuthTestEnv,
  WEB_CALLBACK,
  WEB_ORIGIN,
  type OAuthTestEnv,
} from '../helpers/oauth-test-env.js';
import { accessToken } from '../members/world.js';
import { startSession } from '../../src/auth/sessions.js';
import { RECENT_SIGN_IN_MS } from '@raccolta/contracts';

const STEP_MS = 30_000;
/** The middle of a time step, so moving by whole steps never lands on an edge. */
const START = 1_800_000_000_000 - (1_800_000_000_000 % STEP_MS) + 15_000;

function codeAt(secret: string, timestamp: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });
}

describe('second factors', () => {
  let server: TestServer;
  let now = START;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: WEB_ORIGIN }, { clock: () => now });
  });
  afterAll(() => server.close());

  async function call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    user?: UserRow,
    payload?: object,
  ) {
    const res = await server.app.inject({
      method,
      url: `/api${url}`,
      headers: user ? { authorization: `Bearer ${await accessToken(server.ctx, user)}` } : {},
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  }

  const signIn = (user: UserRow) =>
    call('POST', '/auth/signin', undefined, { email: user.email, password: TEST_PASSWORD });

  /** A password sign-in that must stop at the second step; its data. */
  async function secondStep(user: UserRow) {
    const res = await signIn(user);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.errorCode).toBe('secondFactorRequired');
    return res.body.data as {
      challenge: string;
      methods: string[];
      webauthn?: { challenge: string };
    };
  }

  async function enrolTotp(user: UserRow) {
    const start = await call('POST', '/users/@me/totp', user);
    expect(start.status).toBe(200);
    const secret = start.body.secret as string;
    const confirm = await call('POST', '/users/@me/totp/confirm', user, {
      code: codeAt(secret, now),
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    return { secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
  }

  it('enrols TOTP only after a right code, answers recovery codes once, keeps the secret encrypted', async () => {
    const user = await createUser(server.ctx, { email: 'totp-enrol@example.com' });
    const start = await call('POST', '/users/@me/totp', user);
    expect(start.status).toBe(200);
    const secret = start.body.secret as string;
    expect(start.body.uri).toMatch(/^otpauth:\/\/totp\/Raccolta:totp-enrol%40example\.com\?/);
    const stored = await server.ctx.db
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_enc).not.toContain(secret);
    // Not active yet: the password alone signs in.
    expect((await signIn(user)).status).toBe(200);

    const wrong = await call('POST', '/users/@me/totp/confirm', user, {
      code: codeAt(secret, now + 3 * STEP_MS),
    });
    expect(wrong).toMatchObject({ status: 400, body: { errorCode: 'wrongSecondFactorCode' } });
    const confirm = await call('POST', '/users/@me/totp/confirm', user, {
      code: codeAt(secret, now),
    });
    expect(confirm.status).toBe(200);
    const codes = confirm.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const status = await call('GET', '/users/@me/second-factors', user);
    expect(status.body).toEqual({ allowed: true, totp: true, recoveryCodesLeft: 10, passkeys: [] });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    expect(await call('POST', '/users/@me/totp', user)).toMatchObject({
      status: 409,
      body: { errorCode: 'secondFactorAlreadyEnabled' },
    });
  });

  it('asks for the second step; a used step is refused, ±1 step accepted, ±2 refused', async () => {
    const user = await createUser(server.ctx, { email: 'totp-steps@example.com' });
    const { secret } = await enrolTotp(user);
    const enrolledAt = now;

    let data = await secondStep(user);
    expect(data.methods).toEqual(['totp', 'recovery']);
    const complete = (totp: string) =>
      call('POST', '/auth/second-factor', undefined, { challenge: data.challenge, totp });
    // The code that confirmed the enrolment is used.
    expect(await complete(codeAt(secret, enrolledAt))).toMatchObject({
      status: 400,
      body: { errorCode: 'wrongSecondFactorCode' },
    });

    now += 3 * STEP_MS;
    expect((await complete(codeAt(secret, now + 2 * STEP_MS))).status).toBe(400);
    expect((await complete(codeAt(secret, now - 2 * STEP_MS))).status).toBe(400);
    const ok = await complete(codeAt(secret, now - STEP_MS));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result).toMatchObject({ TokenType: 'Bearer' });
    // The challenge is used up.
    expect((await complete(codeAt(secret, now))).body.errorCode).toBe('notAuthorized');

    data = await secondStep(user);
    // The same code again, on a new challenge: its step is used.
    expect((await complete(codeAt(secret, now - STEP_MS))).status).toBe(400);
    expect((await complete(codeAt(secret, now + STEP_MS))).status).toBe(200);
  });

  it('takes each recovery code once; new codes replace the old ones', async () => {
    const user = await createUser(server.ctx, { email: 'recovery@example.com' });
    const { recoveryCodes } = await enrolTotp(user);
    const [first, second] = recoveryCodes;
    let data = await secondStep(user);
    const ok = await call('POST', '/auth/second-factor', undefined, {
      challenge: data.challenge,
      recoveryCode: first?.toUpperCase(),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    data = await secondStep(user);
    const again = await call('POST', '/auth/second-factor', undefined, {
      challenge: data.challenge,
      recoveryCode: first,
    });
    expect(again).toMatchObject({ status: 400, body: { errorCode: 'wrongSecondFactorCode' } });
    expect((await call('GET', '/users/@me/second-factors', user)).body.recoveryCodesLeft).toBe(9);

    const fresh = await call('POST', '/users/@me/recovery-codes', user);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    const old = await call('POST', '/auth/second-factor', undefined, {
      challenge: data.challenge,
      recoveryCode: second,
    });
    expect(old.status).toBe(400);
    const replaced = await call('POST', '/auth/second-factor', undefined, {
      challenge: data.challenge,
      recoveryCode: (fresh.body.recoveryCodes as string[])[0],
    });
    expect(replaced.status).toBe(200);
  });

  it('counts wrong codes against the account like wrong passwords', async () => {
    const user = await createUser(server.ctx, { email: 'totp-limit@example.com' });
    const { secret } = await enrolTotp(user);
    now += STEP_MS;
    const data = await secondStep(user);
    const attempt = (totp: string) =>
      call('POST', '/auth/second-factor', undefined, { challenge: data.challenge, totp });
    for (let i = 0; i < server.config.auth.signinMaxFailuresPerAccount; i += 1) {
      expect((await attempt('000000')).body.errorCode).toBe('wrongSecondFactorCode');
    }
    // Past the limit even the right code is not checked.
    expect(await attempt(codeAt(secret, now))).toMatchObject({
      status: 429,
      body: { errorCode: 'tooManyRequests' },
    });
    expect((await signIn(user)).status).toBe(429);
  });

  it('asks every second-factor route for a signed-in caller, and refuses a malformed body', async () => {
    for (const [method, url] of [
      ['GET', '/users/@me/second-factors'],
      ['POST', '/users/@me/totp'],
      ['POST', '/users/@me/totp/confirm'],
      ['DELETE', '/users/@me/totp'],
      ['POST', '/users/@me/recovery-codes'],
      ['POST', '/users/@me/passkeys/options'],
      ['POST', '/users/@me/passkeys'],
      ['DELETE', '/users/@me/passkeys/00000000-0000-4000-8000-000000000000'],
      ['POST', '/users/@me/reauthenticate'],
    ] as const) {
      const res = await call(method, url, undefined, method === 'GET' ? undefined : {});
      expect(res, `${method} ${url}`).toMatchObject({
        status: 401,
        body: { errorCode: 'authorizationRequired' },
      });
    }
    const user = await createUser(server.ctx, { email: 'totp-malformed@example.com' });
    expect((await call('POST', '/users/@me/totp', user, {})).status).toBe(200);
    for (const payload of [{}, { code: 123456 }, { code: 'x'.repeat(100) }]) {
      expect(await call('POST', '/users/@me/totp/confirm', user, payload)).toMatchObject({
        status: 400,
        body: { errorCode: 'invalidInput' },
      });
    }
    // Nothing was turned on.
    expect((await call('GET', '/users/@me/second-factors', user)).body).toMatchObject({
      totp: false,
    });
  });

  it('turns TOTP off only with the password or a current code', async () => {
    const user = await createUser(server.ctx, { email: 'totp-off@example.com' });
    await enrolTotp(user);
    expect(
      await call('DELETE', '/users/@me/totp', user, { password: 'Wrong-password1' }),
    ).toMatchObject({
      status: 401,
      body: { errorCode: 'notAuthorized' },
    });
    expect((await call('DELETE', '/users/@me/totp', user, {})).status).toBe(400);
    expect(
      (await call('DELETE', '/users/@me/totp', user, { password: TEST_PASSWORD })).status,
    ).toBe(200);
    expect((await signIn(user)).status).toBe(200);
    const status = await call('GET', '/users/@me/second-factors', user);
    expect(status.body).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
  });

  it('asks a session signed in more than 10 minutes ago to confirm it is you before changing factors', async () => {
    const user = await createUser(server.ctx, { email: 'reauth@example.com' });
    const session = await startSession(server.ctx, user, { identityProvider: false });
    const as = async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
      const res = await server.app.inject({
        method,
        url: `/api${url}`,
        headers: { authorization: `Bearer ${session.AccessToken}` },
        ...(payload === undefined ? {} : { payload }),
      });
      return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
    };
    const signedInAt = now;
    // Within 10 minutes of the sign-in: allowed.
    now = signedInAt + RECENT_SIGN_IN_MS;
    const first = await as('POST', '/users/@me/totp');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const secret = first.body.secret as string;
    expect(
      (await as('POST', '/users/@me/totp/confirm', { code: codeAt(secret, now) })).status,
    ).toBe(200);

    // Later, each change is refused, with the ways this account can confirm, and changes nothing.
    now = signedInAt + RECENT_SIGN_IN_MS + STEP_MS;
    const codesBefore = await server.ctx.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    for (const [method, url] of [
      ['POST', '/users/@me/recovery-codes'],
      ['POST', '/users/@me/passkeys/options'],
      ['DELETE', '/users/@me/passkeys/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      expect(await as(method, url), url).toMatchObject({
        status: 403,
        body: { errorCode: 'reauthenticationRequired', data: { methods: ['password', 'totp'] } },
      });
    }
    expect(
      await server.ctx.db
        .selectFrom('recovery_codes')
        .select('code_hash')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual(codesBefore);

    // A wrong password or code does not count; the right code (once) does.
    expect(
      await as('POST', '/users/@me/reauthenticate', { password: 'not-the-password' }),
    ).toMatchObject({
      status: 401,
      body: { errorCode: 'notAuthorized' },
    });
    expect(
      await as('POST', '/users/@me/reauthenticate', { code: codeAt(secret, now + 5 * STEP_MS) }),
    ).toMatchObject({
      status: 400,
      body: { errorCode: 'wrongSecondFactorCode' },
    });
    expect(await as('POST', '/users/@me/reauthenticate', {})).toMatchObject({
      status: 400,
      body: { errorCode: 'invalidInput' },
    });
    expect(
      await as('POST', '/users/@me/reauthenticate', { password: TEST_PASSWORD, code: '123456' }),
    ).toMatchObject({ status: 400, body: { errorCode: 'invalidInput' } });
    // None of the refused answers counted as a confirmation.
    const row = await server.ctx.db
      .selectFrom('sessions')
      .select('authenticated_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.authenticated_at).toBeNull();
    expect((await as('POST', '/users/@me/recovery-codes')).status).toBe(403);
    expect(
      (await as('POST', '/users/@me/reauthenticate', { code: codeAt(secret, now) })).status,
    ).toBe(200);
    expect((await as('POST', '/users/@me/recovery-codes')).status).toBe(200);
    // The same code again is refused: a code works once.
    expect(
      (await as('POST', '/users/@me/reauthenticate', { code: codeAt(secret, now) })).status,
    ).toBe(400);

    // 10 minutes after the reauthentication it is needed again; the password works too.
    now += RECENT_SIGN_IN_MS + STEP_MS;
    expect((await as('POST', '/users/@me/passkeys/options')).status).toBe(403);
    expect(
      (await as('POST', '/users/@me/reauthenticate', { password: TEST_PASSWORD })).status,
    ).toBe(200);
    expect((await as('POST', '/users/@me/passkeys/options')).status).toBe(200);

    // An account without a password or an authenticator app (a provider sign-in) must sign in
    // again; an access token without a session cannot reauthenticate at all.
    const social = await createUser(server.ctx, {
      email: 'reauth-social@example.com',
      password: null,
    });
    const socialSession = await startSession(server.ctx, social, { identityProvider: true });
    now += RECENT_SIGN_IN_MS + STEP_MS;
    const refused = await server.app.inject({
      method: 'POST',
      url: '/api/users/@me/passkeys/options',
      headers: { authorization: `Bearer ${socialSession.AccessToken}` },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      errorCode: 'reauthenticationRequired',
      data: { methods: [] },
    });
  });

  it('refuses enrolment to internal contributors', async () => {
    const owner = await createUser(server.ctx, { email: 'sf-owner@example.com' });
    const team = await createTeam(server.ctx, { owner });
    const member = await createInternalMember(server.ctx, {
      teamId: team.id,
      username: 'sf-internal',
      password: TEST_PASSWORD,
    });
    for (const url of ['/users/@me/totp', '/users/@me/passkeys/options']) {
      expect(await call('POST', url, member)).toMatchObject({
        status: 403,
        body: { errorCode: 'secondFactorNotAllowed' },
      });
    }
    expect((await call('GET', '/users/@me/second-factors', member)).body).toMatchObject({
      allowed: false,
    });
  });

  it('adds a passkey, signs in with it once per challenge, and removes it', async () => {
    const user = await createUser(server.ctx, { email: 'passkey@example.com' });
    const authenticator = new SoftwareAuthenticator('localhost', WEB_ORIGIN);
    const options = await call('POST', '/users/@me/passkeys/options', user);
    expect(options.status).toBe(200);
    expect(options.body.rp).toEqual({ name: 'Raccolta', id: 'localhost' });
    const response = authenticator.register(options.body as { challenge: string });
    const added = await call('POST', '/users/@me/passkeys', user, { name: 'Laptop', response });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.recoveryCodes).toHaveLength(10);
    // The registration challenge is used up.
    const replay = await call('POST', '/users/@me/passkeys', user, { name: 'Again', response });
    expect(replay.status).toBe(400);

    const data = await secondStep(user);
    expect(data.methods).toEqual(['webauthn', 'recovery']);
    expect(data.webauthn).toBeDefined();
    const assertion = authenticator.assert(data.webauthn as { challenge: string });
    const ok = await call('POST', '/auth/second-factor', undefined, {
      challenge: data.challenge,
      webauthn: assertion,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const next = await secondStep(user);
    const replayed = await call('POST', '/auth/second-factor', undefined, {
      challenge: next.challenge,
      webauthn: assertion,
    });
    expect(replayed.status).toBe(400);

    const status = await call('GET', '/users/@me/second-factors', user);
    const passkeys = status.body.passkeys as { id: string; name: string; lastUsedAt: number }[];
    expect(passkeys).toMatchObject([{ name: 'Laptop', lastUsedAt: now }]);
    expect((await call('DELETE', `/users/@me/passkeys/${passkeys[0]?.id}`, user)).status).toBe(200);
    expect((await signIn(user)).status).toBe(200);
  });
});

describe('second factor after a provider sign-in', () => {
  let env: OAuthTestEnv;
  beforeAll(async () => {
    env = await startOAuthTestEnv();
  });
  afterAll(() => env.close());

  async function exchange() {
    const signIn = await env.signIn();
    return env.exchange({
      grant_type: 'authorization_code',
      code: signIn.url.searchParams.get('code') ?? '',
      code_verifier: signIn.attempt.verifier,
      redirect_uri: WEB_CALLBACK,
      client_id: 'raccolta-web',
    });
  }

  it('answers secondFactorRequired instead of tokens, then tokens for a right code', async () => {
    expect((await exchange()).status).toBe(200);
    const ctx = env.server.ctx;
    const user = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'alice@example.test')
      .executeTakeFirstOrThrow();
    const token = await accessToken(ctx, user);
    const start = await env.server.app.inject({
      method: 'POST',
      url: '/api/users/@me/totp',
      headers: { authorization: `Bearer ${token}` },
    });
    const secret = start.json<{ secret: string }>().secret;
    const confirmedAt = ctx.clock();
    const confirm = await env.server.app.inject({
      method: 'POST',
      url: '/api/users/@me/totp/confirm',
      headers: { authorization: `Bearer ${token}` },
      payload: { code: codeAt(secret, confirmedAt) },
    });
    expect(confirm.statusCode).toBe(200);

    const res = await exchange();
    expect(res.status).toBe(403);
    const body = (await res.json()) as { errorCode: string; data: { challenge: string } };
    expect(body.errorCode).toBe('secondFactorRequired');
    env.advanceClock(STEP_MS);
    const done = await env.server.app.inject({
      method: 'POST',
      url: '/api/auth/second-factor',
      payload: { challenge: body.data.challenge, totp: codeAt(secret, ctx.clock()) },
    });
    expect(done.statusCode, done.body).toBe(200);
    const refresh = await ctx.db
      .selectFrom('refresh_tokens')
      .select('identity_provider')
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(refresh.identity_provider).toBe(1);
  });
});
