import { authResultResponseSchema, type TokenSet } from '@raccolta/contracts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey } from '../../src/auth/secrets.js';
import {
  createInternalMember,
  createTeam,
  createUser,
  TEST_PASSWORD,
} from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const PASSWORD = TEST_PASSWORD;

describe('sessions, password flows and the profile', () => {
  let smtp: SmtpCapture;
  let server: TestServer;
  let now = Date.now();

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(
      { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url },
      { worker: true, clock: () => now },
    );
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const post = (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url: `/api${url}`, payload });
  const me = (token: string) =>
    server.app.inject({ url: '/api/users/@me', headers: { authorization: `Bearer ${token}` } });
  async function signIn(email: string, password = PASSWORD): Promise<TokenSet> {
    const res = await post('/auth/signin', { email, password });
    expect(res.statusCode).toBe(200);
    return authResultResponseSchema.parse(res.json()).result;
  }

  it('rotates refresh tokens, and a reused one revokes the whole family', async () => {
    await createUser(server.ctx, { email: 'rota@example.com' });
    const first = await signIn('rota@example.com');
    const other = await signIn('rota@example.com'); // another device: another family

    const r1 = await post('/auth/refresh', { refreshToken: first.RefreshToken });
    expect(r1.statusCode).toBe(200);
    const second = authResultResponseSchema.parse(r1.json()).result;
    expect(second.RefreshToken).toBeTruthy();
    expect(second.RefreshToken).not.toBe(first.RefreshToken);
    expect((await me(second.AccessToken)).statusCode).toBe(200);

    // The first token is presented again: someone copied it. Both it and its successor die.
    const reuse = await post('/auth/refresh', { refreshToken: first.RefreshToken });
    expect(reuse.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
    const successor = await post('/auth/refresh', { refreshToken: second.RefreshToken });
    expect(successor.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
    // The other device's session is untouched.
    expect((await post('/auth/refresh', { refreshToken: other.RefreshToken })).statusCode).toBe(
      200,
    );
  });

  it('refuses unknown and expired refresh tokens', async () => {
    await createUser(server.ctx, { email: 'exp@example.com' });
    const tokens = await signIn('exp@example.com');
    expect((await post('/auth/refresh', { refreshToken: 'nope' })).json()).toMatchObject({
      errorCode: 'invalidAuthorization',
    });
    now += 31 * 24 * 60 * 60_000;
    try {
      expect(
        (await post('/auth/refresh', { refreshToken: tokens.RefreshToken })).json(),
      ).toMatchObject({ errorCode: 'invalidAuthorization' });
    } finally {
      now -= 31 * 24 * 60 * 60_000;
    }
  });

  it('signs out every session: access tokens and refresh tokens stop working', async () => {
    await createUser(server.ctx, { email: 'out@example.com' });
    const a = await signIn('out@example.com');
    const b = await signIn('out@example.com');
    const res = await post('/auth/signout', { accessToken: a.AccessToken });
    expect(res.statusCode).toBe(200);
    expect((await me(a.AccessToken)).json()).toMatchObject({
      statusCode: 401,
      errorCode: 'invalidAuthorization',
    });
    expect((await me(b.AccessToken)).statusCode).toBe(401);
    expect((await post('/auth/refresh', { refreshToken: b.RefreshToken })).statusCode).toBe(401);
    expect((await post('/auth/signout', { accessToken: 'garbage' })).json()).toMatchObject({
      errorCode: 'invalidAuthorization',
    });
  });

  it('refuses access tokens that are missing, malformed, forged, incomplete or expired', async () => {
    const user = await createUser(server.ctx, { email: 'tok@example.com' });
    const tokens = await signIn('tok@example.com');
    expect((await server.app.inject('/api/users/@me')).json()).toMatchObject({
      statusCode: 401,
      errorCode: 'authorizationRequired',
    });
    expect((await me('not.a.jwt')).json()).toMatchObject({
      statusCode: 401,
      errorCode: 'invalidAuthorization',
    });
    const basic = await server.app.inject({
      url: '/api/users/@me',
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.json()).toMatchObject({ errorCode: 'invalidAuthorization' });
    // The ID token is not an access token.
    expect((await me(tokens.IdToken)).statusCode).toBe(401);

    const sign = (
      claims: Record<string, unknown>,
      key: Uint8Array,
      exp = Math.floor(now / 1000) + 600,
    ) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(server.config.apiPublicUrl)
        .setAudience('raccolta-web')
        .setSubject(user.id)
        .setIssuedAt(Math.floor(now / 1000) - 10)
        .setExpirationTime(exp)
        .sign(key);
    const key = deriveKey(server.config.secret, 'jwt');
    expect((await me(await sign({ token_use: 'access', sv: 0 }, key))).statusCode).toBe(200);
    const forged = await sign(
      { token_use: 'access', sv: 0 },
      deriveKey('another-secret-another-secret-000000', 'jwt'),
    );
    expect((await me(forged)).json()).toMatchObject({ errorCode: 'invalidAuthorization' });
    expect((await me(await sign({ token_use: 'access' }, key))).json()).toMatchObject({
      errorCode: 'invalidAuthorization',
    });
    const expired = await sign({ token_use: 'access', sv: 0 }, key, Math.floor(now / 1000) - 60);
    expect((await me(expired)).json()).toMatchObject({ errorCode: 'invalidAuthorization' });
  });

  it('resets a forgotten password through the mailed link and ends every session', async () => {
    await createUser(server.ctx, { email: 'fran@example.com', locale: 'en' });
    const session = await signIn('fran@example.com');
    const unknown = await post('/auth/forgot-password', { email: 'nobody@example.com' });
    const known = await post('/auth/forgot-password', { email: 'fran@example.com' });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);

    const mail = await smtp.waitFor((m) => m.to.includes('fran@example.com'));
    expect(mail.subject).toMatch(/password/i);
    const link = new URL(/https?:\/\/\S+\/auth\/reset\?\S+/.exec(mail.text)?.[0] ?? '');
    const code = link.searchParams.get('code') ?? '';
    expect(link.searchParams.get('email')).toBe('fran@example.com');

    const weak = await post('/auth/reset-password', {
      email: 'fran@example.com',
      code,
      newPassword: 'short',
    });
    expect(weak.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidPassword' });
    const wrong = await post('/auth/reset-password', {
      email: 'fran@example.com',
      code: 'y'.repeat(43),
      newPassword: 'N3w-password',
    });
    expect(wrong.json()).toMatchObject({ statusCode: 400, errorCode: 'wrongVerificationCode' });

    const ok = await post('/auth/reset-password', {
      email: 'fran@example.com',
      code,
      newPassword: 'N3w-password',
    });
    expect(ok.statusCode).toBe(200);
    expect((await me(session.AccessToken)).statusCode).toBe(401);
    expect(
      (await post('/auth/signin', { email: 'fran@example.com', password: PASSWORD })).statusCode,
    ).toBe(401);
    await signIn('fran@example.com', 'N3w-password');
    const again = await post('/auth/reset-password', {
      email: 'fran@example.com',
      code,
      newPassword: 'Th1rd-password',
    });
    // A used link says so, rather than calling its code wrong.
    expect(again.json()).toMatchObject({ statusCode: 410, errorCode: 'usedResetLink' });
    expect(smtp.messages.filter((m) => m.to.includes('nobody@example.com'))).toEqual([]);
  });

  it('refuses an expired reset link', async () => {
    await createUser(server.ctx, { email: 'gia@example.com' });
    await post('/auth/forgot-password', { email: 'gia@example.com' });
    const mail = await smtp.waitFor((m) => m.to.includes('gia@example.com'));
    const code = new URL(
      /https?:\/\/\S+\/auth\/reset\?\S+/.exec(mail.text)?.[0] ?? '',
    ).searchParams.get('code');
    now += 61 * 60_000;
    try {
      const res = await post('/auth/reset-password', {
        email: 'gia@example.com',
        code,
        newPassword: 'N3w-password',
      });
      expect(res.json()).toMatchObject({ statusCode: 410, errorCode: 'expiredVerificationCode' });
    } finally {
      now -= 61 * 60_000;
    }
  });

  it("takes an internal member's first sign-in through a new password", async () => {
    const owner = await createUser(server.ctx, { email: 'owner@example.com' });
    const team = await createTeam(server.ctx, { owner, alias: 'photo-club' });
    const member = await createInternalMember(server.ctx, {
      teamId: team.id,
      username: 'mario.rossi',
      password: 'Gener4ted-pw',
    });

    const first = await post('/auth/signin', {
      username: 'mario.rossi',
      password: 'Gener4ted-pw',
      team: 'photo-club',
    });
    expect(first.statusCode).toBe(403);
    const body = first.json<{
      errorCode: string;
      data: { session: string; teamId: string; username: string };
    }>();
    expect(body.errorCode).toBe('newPasswordRequired');
    expect(body.data).toMatchObject({ teamId: team.id, username: 'mario.rossi' });
    // Without the team, or with one that is no team, the answer asks for the team code, the same
    // for a username that exists nowhere.
    for (const username of ['mario.rossi', 'nobody.at.all']) {
      const noTeam = await post('/auth/signin', { username, password: 'Gener4ted-pw' });
      expect(noTeam.json()).toMatchObject({ statusCode: 400, errorCode: 'teamRequired' });
      const badTeam = await post('/auth/signin', {
        username,
        password: 'Gener4ted-pw',
        team: 'photo-clob',
      });
      expect(badTeam.json()).toMatchObject({ statusCode: 404, errorCode: 'teamNotFound' });
    }
    const wrongPassword = await post('/auth/signin', {
      username: 'mario.rossi',
      password: 'Wrong-pass1',
      team: 'photo-club',
    });
    expect(wrongPassword.json()).toMatchObject({ statusCode: 401, errorCode: 'notAuthorized' });

    // The generated password cannot be chosen again; the session stays usable.
    const same = await post('/auth/new-password', { ...body.data, newPassword: 'Gener4ted-pw' });
    expect(same.json()).toMatchObject({ statusCode: 400, errorCode: 'samePassword' });

    const weak = await post('/auth/new-password', { ...body.data, newPassword: 'weak' });
    expect(weak.json()).toMatchObject({ errorCode: 'invalidPassword' });
    const set = await post('/auth/new-password', { ...body.data, newPassword: 'M1o-password' });
    expect(set.statusCode).toBe(200);
    const tokens = authResultResponseSchema.parse(set.json()).result;
    expect((await me(tokens.AccessToken)).json()).toMatchObject({
      userId: member.id,
      email: null,
      username: 'mario.rossi',
    });
    expect(
      (await post('/auth/new-password', { ...body.data, newPassword: 'Again-pass1' })).statusCode,
    ).toBe(401);

    const byId = await post('/auth/signin', {
      username: 'mario.rossi',
      password: 'M1o-password',
      team: team.id,
    });
    expect(byId.statusCode).toBe(200);
  });

  it('reads and updates the profile; bad input changes nothing', async () => {
    await createUser(server.ctx, { email: 'pia@example.com', nickname: 'Pia' });
    const { AccessToken } = await signIn('pia@example.com');
    const put = (payload: object) =>
      server.app.inject({
        method: 'PUT',
        url: '/api/users/@me',
        payload,
        headers: { authorization: `Bearer ${AccessToken}` },
      });
    const ok = await put({ firstName: 'Pia', lastName: 'Bianchi', nickname: 'Piuccia' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      firstName: 'Pia',
      lastName: 'Bianchi',
      nickname: 'Piuccia',
      email: 'pia@example.com',
    });
    const bad = await put({ firstName: 'Pia', lastName: 'Bianchi', nickname: 'x'.repeat(31) });
    expect(bad.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    expect((await me(AccessToken)).json()).toMatchObject({ nickname: 'Piuccia' });
    const anonymous = await server.app.inject({
      method: 'PUT',
      url: '/api/users/@me',
      payload: { firstName: 'A', lastName: 'B', nickname: 'C' },
    });
    expect(anonymous.json()).toMatchObject({ statusCode: 401, errorCode: 'authorizationRequired' });
  });
});
