import { authResultResponseSchema, errorBodySchema } from '@raccolta/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const PASSWORD = 'Sup3r-secret';

describe('sign-up, verification and sign-in', () => {
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

  const post = (url: string, payload: object, remoteAddress = '10.0.0.1') =>
    server.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress });

  async function verifyLinkFor(email: string) {
    const mail = await smtp.waitFor(
      (m) => m.to.includes(email) && /verif/i.test(m.text + m.subject),
    );
    const link = /https?:\/\/\S+\/auth\/verify\?\S+/.exec(mail.text)?.[0];
    if (!link) throw new Error(`no verification link in ${mail.text}`);
    return new URL(link);
  }

  it('signs up, sends the verification mail in the user language, verifies and signs in', async () => {
    const res = await post('/auth/signup', {
      email: 'Ada@Example.com',
      password: PASSWORD,
      nickname: 'Ada',
      locale: 'it',
    });
    expect(res.statusCode).toBe(201);
    const { userId, username } = res.json<{ userId: string; username: string }>();
    expect(username).toBe('ada');

    const row = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email: 'ada@example.com',
      email_verified: 0,
      scope: 'global',
      locale: 'it',
    });
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const link = await verifyLinkFor('ada@example.com');
    const mail = smtp.messages.find((m) => m.to.includes('ada@example.com'));
    expect(mail?.subject).toMatch(/conferma|verifica/i);
    expect(link.searchParams.get('username')).toBe('ada');
    const code = link.searchParams.get('code') ?? '';
    expect(Buffer.from(code, 'base64url').length).toBeGreaterThanOrEqual(16);
    // The code is stored only as a hash.
    const stored = await server.ctx.db
      .selectFrom('one_time_codes')
      .select('code_hash')
      .where('user_id', '=', userId)
      .execute();
    expect(stored.map((s) => s.code_hash)).not.toContain(code);

    const before = await post('/auth/signin', { email: 'ada@example.com', password: PASSWORD });
    expect(before.statusCode).toBe(403);
    expect(before.json()).toMatchObject({ errorCode: 'notConfirmed' });

    const verify = await post('/auth/verify-email', {
      email: 'ada@example.com',
      code,
      username: 'ada',
    });
    expect(verify.statusCode).toBe(200);
    // A second click on the same link of a verified account still succeeds.
    expect(
      (await post('/auth/verify-email', { email: 'ada@example.com', code, username: 'ada' }))
        .statusCode,
    ).toBe(200);

    const signin = await post('/auth/signin', { email: 'ADA@example.com', password: PASSWORD });
    expect(signin.statusCode).toBe(200);
    const { result } = authResultResponseSchema.parse(signin.json());
    expect(result.TokenType).toBe('Bearer');
    expect(result.ExpiresIn).toBe(3600);
    expect(result.RefreshToken).toBeTruthy();
    expect(decodeJwt(result.IdToken)).toMatchObject({
      sub: userId,
      email: 'ada@example.com',
      username: 'ada',
    });

    const me = await server.app.inject({
      url: '/api/users/@me',
      headers: { authorization: `Bearer ${result.AccessToken}` },
    });
    expect(me.json()).toMatchObject({
      userId,
      email: 'ada@example.com',
      nickname: 'Ada',
      userScope: 'global',
    });

    const byUsername = await post('/auth/signin', { username: 'ada', password: PASSWORD });
    expect(byUsername.statusCode).toBe(200);
  });

  it('refuses wrong and expired verification codes', async () => {
    await post('/auth/signup', {
      email: 'bob@example.com',
      password: PASSWORD,
      nickname: 'Bob',
      locale: 'en',
    });
    const link = await verifyLinkFor('bob@example.com');
    const wrong = await post('/auth/verify-email', {
      email: 'bob@example.com',
      code: 'x'.repeat(43),
      username: 'bob',
    });
    expect(wrong.json()).toMatchObject({ statusCode: 400, errorCode: 'wrongVerificationCode' });
    now += 49 * 60 * 60_000;
    try {
      const expired = await post('/auth/verify-email', {
        email: 'bob@example.com',
        code: link.searchParams.get('code'),
        username: 'bob',
      });
      expect(expired.json()).toMatchObject({
        statusCode: 410,
        errorCode: 'expiredVerificationCode',
      });
    } finally {
      now -= 49 * 60 * 60_000;
    }
    const missing = await post('/auth/verify-email', { email: 'bob@example.com', username: 'bob' });
    expect(missing.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidVerification' });
  });

  it('sends a new verification link on request, answering the same for any address', async () => {
    await post('/auth/signup', {
      email: 'dina@example.com',
      password: PASSWORD,
      nickname: 'Dina',
      locale: 'en',
    });
    const expiredLink = await verifyLinkFor('dina@example.com');
    await createUser(server.ctx, { email: 'done.already@example.com' });
    const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email)).length;
    const resendJobsDone = async () => {
      const open = await server.ctx.db
        .selectFrom('jobs')
        .select('id')
        .where('queue', 'in', ['auth.verification-resend', 'mail.send'])
        .where('status', 'in', ['pending', 'running'])
        .execute();
      return open.length === 0;
    };

    now += 49 * 60 * 60_000;
    try {
      const answers = await Promise.all(
        ['dina@example.com', 'nobody.here@example.com', 'done.already@example.com'].map((email) =>
          post('/auth/resend-verification', { email }, '10.0.9.1'),
        ),
      );
      for (const res of answers) {
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(answers[0]?.body);
      }
      await expect.poll(() => mailsTo('dina@example.com')).toBe(2);
      await expect.poll(resendJobsDone).toBe(true);
      // Only the unverified sign-up gets a link.
      expect(mailsTo('nobody.here@example.com')).toBe(0);
      expect(mailsTo('done.already@example.com')).toBe(0);

      const fresh = new URL(
        /https?:\/\/\S+\/auth\/verify\?\S+/.exec(
          smtp.messages.filter((m) => m.to.includes('dina@example.com'))[1]?.text ?? '',
        )?.[0] ?? '',
      );
      const old = await post('/auth/verify-email', {
        email: 'dina@example.com',
        code: expiredLink.searchParams.get('code'),
        username: 'dina',
      });
      expect(old.statusCode).toBe(400);
      const ok = await post('/auth/verify-email', {
        email: 'dina@example.com',
        code: fresh.searchParams.get('code'),
        username: 'dina',
      });
      expect(ok.statusCode, ok.body).toBe(200);
    } finally {
      now -= 49 * 60 * 60_000;
    }
  });

  it('limits new verification links per client address and per recipient', async () => {
    await post('/auth/signup', {
      email: 'ezio@example.com',
      password: PASSWORD,
      nickname: 'Ezio',
      locale: 'en',
    });
    await verifyLinkFor('ezio@example.com');
    // Per client address: 10 an hour, whatever the address asked for.
    for (let i = 0; i < 10; i++) {
      const res = await post(
        '/auth/resend-verification',
        { email: `x${i}@example.com` },
        '10.0.9.2',
      );
      expect(res.statusCode).toBe(200);
    }
    const blocked = await post('/auth/resend-verification', { email: 'x@example.com' }, '10.0.9.2');
    expect(blocked.json()).toMatchObject({ statusCode: 429, errorCode: 'tooManyRequests' });

    // Per recipient: the account mail limit (5 an hour, the sign-up's mail included), answered
    // the same past it.
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push(
        (await post('/auth/resend-verification', { email: 'ezio@example.com' }, `10.0.10.${i}`))
          .statusCode,
      );
    }
    expect(answers.every((status) => status === 200)).toBe(true);
    await expect
      .poll(() => smtp.messages.filter((m) => m.to.includes('ezio@example.com')).length)
      .toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.messages.filter((m) => m.to.includes('ezio@example.com')).length).toBe(5);
  });

  it('answers duplicates as spec §8 names them', async () => {
    await createUser(server.ctx, { email: 'verified@example.com' });
    await createUser(server.ctx, {
      email: 'social@example.com',
      password: null,
      signUpMethod: 'google',
    });
    await createUser(server.ctx, { email: 'invited@example.com', signUpMethod: 'invitation' });
    const body = (email: string) => ({ email, password: PASSWORD, nickname: 'X', locale: 'en' });
    expect((await post('/auth/signup', body('verified@example.com'))).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'userAlreadyExists',
    });
    expect((await post('/auth/signup', body('social@example.com'))).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'alreadySignedUp',
      data: { provider: 'google' },
    });
    expect((await post('/auth/signup', body('invited@example.com'))).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'accountAliasAlreadyExists',
    });
  });

  /** The verification links mailed to `email`, oldest first. */
  function verifyLinksFor(email: string): URL[] {
    return smtp.messages
      .filter((m) => m.to.includes(email) && /verif/i.test(m.text + m.subject))
      .map((m) => new URL(/https?:\/\/\S+\/auth\/verify\?\S+/.exec(m.text)?.[0] ?? ''));
  }
  const verifyWith = (email: string, link: URL | undefined) =>
    post('/auth/verify-email', {
      email,
      code: link?.searchParams.get('code'),
      username: link?.searchParams.get('username'),
    });
  const signInStatus = async (email: string, password: string) =>
    (await post('/auth/signin', { email, password })).statusCode;

  it('keeps no password chosen by a stranger before the mailbox was proven', async () => {
    const victim = 'carla@example.com';
    // Someone signs up with Carla's address and a password of their own.
    expect(
      (
        await post('/auth/signup', {
          email: victim,
          password: 'Attack3r-pass',
          nickname: 'X',
          locale: 'en',
        })
      ).statusCode,
    ).toBe(201);
    await expect.poll(() => verifyLinksFor(victim).length).toBe(1);
    // Carla signs up later: the address is taken, and a link of her own sign-up is mailed.
    const again = await post('/auth/signup', {
      email: victim,
      password: PASSWORD,
      nickname: 'Carla',
      locale: 'it',
    });
    expect(again.json()).toMatchObject({ statusCode: 409, errorCode: 'userAlreadyExists' });
    await expect.poll(() => verifyLinksFor(victim).length).toBe(2);
    const [first, latest] = verifyLinksFor(victim);
    expect((await verifyWith(victim, first)).json()).toMatchObject({
      errorCode: 'wrongVerificationCode',
    });
    // Two passwords for one unproven address: the proof keeps neither, and asks for one.
    const verified = await verifyWith(victim, latest);
    expect(verified.statusCode).toBe(200);
    const { resetCode } = verified.json<{ verified: true; resetCode?: string }>();
    expect(resetCode).toEqual(expect.any(String));
    expect(await signInStatus(victim, 'Attack3r-pass')).toBe(401);
    expect(await signInStatus(victim, PASSWORD)).toBe(401);
    const reset = await post('/auth/reset-password', {
      email: victim,
      code: resetCode,
      newPassword: 'Carla-chose-1',
    });
    expect(reset.statusCode).toBe(200);
    expect(await signInStatus(victim, 'Carla-chose-1')).toBe(200);
    expect(await signInStatus(victim, 'Attack3r-pass')).toBe(401);
    const row = await server.ctx.db
      .selectFrom('users')
      .select(['nickname', 'locale', 'email_verified'])
      .where('email', '=', victim)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ nickname: 'Carla', locale: 'it', email_verified: 1 });
  });

  it('gives the account the password of the sign-up its link answers', async () => {
    const email = 'dario@example.com';
    await post('/auth/signup', { email, password: PASSWORD, nickname: 'Dario', locale: 'en' });
    // The same person signing up again with the same password contests nothing.
    expect(
      (await post('/auth/signup', { email, password: PASSWORD, nickname: 'Dario D', locale: 'en' }))
        .statusCode,
    ).toBe(409);
    await expect.poll(() => verifyLinksFor(email).length).toBe(2);
    // A resend (lost mail) carries the same sign-up.
    expect((await post('/auth/resend-verification', { email })).statusCode).toBeLessThan(300);
    await expect.poll(() => verifyLinksFor(email).length).toBe(3);
    const verified = await verifyWith(email, verifyLinksFor(email)[2]);
    expect(verified.json()).toEqual({ verified: true });
    expect(await signInStatus(email, PASSWORD)).toBe(200);
    const row = await server.ctx.db
      .selectFrom('users')
      .select('nickname')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.nickname).toBe('Dario D');
  });

  it('carries a contest into the links sent after it', async () => {
    const email = 'elsa@example.com';
    await post('/auth/signup', { email, password: PASSWORD, nickname: 'Elsa', locale: 'en' });
    await post('/auth/signup', { email, password: 'Other-pass-2', nickname: 'Elsa', locale: 'en' });
    await expect.poll(() => verifyLinksFor(email).length).toBe(2);
    // Whoever asks for the link again gets no password through: the resent link is contested too.
    await post('/auth/resend-verification', { email });
    await expect.poll(() => verifyLinksFor(email).length).toBe(3);
    const verified = await verifyWith(email, verifyLinksFor(email)[2]);
    expect(verified.json<{ resetCode?: unknown }>().resetCode).toMatch(/^\S{20,}$/);
    expect(await signInStatus(email, PASSWORD)).toBe(401);
    expect(await signInStatus(email, 'Other-pass-2')).toBe(401);
  });

  it('refuses weak passwords and malformed input, writing nothing', async () => {
    const count = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const weak = await post('/auth/signup', {
      email: 'weak@example.com',
      password: 'password',
      nickname: 'W',
      locale: 'en',
    });
    expect(weak.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidPassword' });
    const badEmail = await post('/auth/signup', {
      email: 'not-an-email',
      password: PASSWORD,
      nickname: 'W',
      locale: 'en',
    });
    expect(badEmail.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidEmail' });
    const badLocale = await post('/auth/signup', {
      email: 'x@example.com',
      password: PASSWORD,
      nickname: 'W',
      locale: 'de',
    });
    expect(badLocale.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('answers an unknown user and a wrong password identically', async () => {
    await createUser(server.ctx, { email: 'dora@example.com' });
    const unknown = await post(
      '/auth/signin',
      { email: 'nobody@example.com', password: 'Whatever1!' },
      '10.0.0.7',
    );
    const wrong = await post(
      '/auth/signin',
      { email: 'dora@example.com', password: 'Whatever1!' },
      '10.0.0.8',
    );
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    // The same but for the id of each request.
    const { requestId: unknownId, ...unknownBody } = errorBodySchema.parse(unknown.json());
    const { requestId: wrongId, ...wrongBody } = errorBodySchema.parse(wrong.json());
    expect(unknownBody).toEqual(wrongBody);
    expect(unknownId).not.toBe(wrongId);
    expect(unknown.json()).toMatchObject({ errorCode: 'notAuthorized' });
  });

  it('takes about the same time for an unknown user and a wrong password', async () => {
    await createUser(server.ctx, { email: 'timing@example.com' });
    const time = async (email: string, ip: string) => {
      const t = performance.now();
      await post('/auth/signin', { email, password: 'Whatever1!' }, ip);
      return performance.now() - t;
    };
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 3; i++) {
      unknown.push(await time(`ghost${i}@example.com`, `10.1.0.${i}`));
      wrong.push(await time('timing@example.com', `10.2.0.${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] ?? 0;
    // Both pay one argon2id verification; without the dummy hash an unknown user answers ~100x faster.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.4);
    expect(median(unknown) / median(wrong)).toBeLessThan(2.5);
  });

  it('answers tooManyRequests after repeated failures on one account, even with the right password', async () => {
    await createUser(server.ctx, { email: 'eve@example.com', password: PASSWORD });
    for (let i = 0; i < 5; i++) {
      const res = await post(
        '/auth/signin',
        { email: 'eve@example.com', password: 'Wrong-pass1' },
        `10.3.0.${i}`,
      );
      expect(res.json()).toMatchObject({ errorCode: 'notAuthorized' });
    }
    const blocked = await post(
      '/auth/signin',
      { email: 'eve@example.com', password: PASSWORD },
      '10.3.1.1',
    );
    expect(blocked.json()).toMatchObject({ statusCode: 429, errorCode: 'tooManyRequests' });
    now += 16 * 60_000;
    try {
      expect(
        (await post('/auth/signin', { email: 'eve@example.com', password: PASSWORD }, '10.3.1.1'))
          .statusCode,
      ).toBe(200);
    } finally {
      now -= 16 * 60_000;
    }
  });
});

describe('per-address sign-in limit and closed sign-up', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SIGNIN_MAX_FAILURES_PER_IP: '3', SIGNUP_MODE: 'invitation' });
  });
  afterAll(() => server.close());

  it('answers tooManyRequests to an address that keeps failing across accounts', async () => {
    const post = (email: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: 'Wrong-pass1' },
        remoteAddress: '10.9.9.9',
      });
    for (let i = 0; i < 3; i++) expect((await post(`u${i}@example.com`)).statusCode).toBe(401);
    expect((await post('u9@example.com')).json()).toMatchObject({
      statusCode: 429,
      errorCode: 'tooManyRequests',
    });
    const other = await server.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'u9@example.com', password: 'Wrong-pass1' },
      remoteAddress: '10.9.9.10',
    });
    expect(other.statusCode).toBe(401);
  });

  it('answers restrictedAccess when sign-up is by invitation only', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'new@example.com', password: PASSWORD, nickname: 'New', locale: 'en' },
    });
    expect(res.json()).toMatchObject({ statusCode: 403, errorCode: 'restrictedAccess' });
    const users = await server.ctx.db.selectFrom('users').select('id').execute();
    expect(users).toEqual([]);
  });
});
