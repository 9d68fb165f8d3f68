import { authResultResponseSchema, type TokenSet } from '@raccolta/contracts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/auth/passwords.js';
import { deriveKey } from '../../src/auth/secrets.js';
import {
  createInternalMember,
  createTeam,
  createUser,
  TEST_PASSWORD,
} from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The abuse suite (issue 12): ways around the sign-in limits, account pre-hijacking and sign-out
 * with stale tokens. Runs on SQLite and, under RACCOLTA_TEST_DB=postgres, on PostgreSQL.
 */
const PASSWORD = TEST_PASSWORD;
const WRONG = 'Wrong-pass1';

let ipSeq = 0;
/** A fresh client address, so the per-address limits of the routes stay out of the way. */
const freshIp = () => {
  ipSeq += 1;
  return `10.${100 + Math.floor(ipSeq / 250)}.${ipSeq % 250}.7`;
};

describe('abuse: sign-in limits, pre-hijacking and sign-out', () => {
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

  const post = (url: string, payload: object, remoteAddress = freshIp()) =>
    server.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress });
  const signInStatus = async (payload: object, remoteAddress?: string) => {
    const res = await post('/auth/signin', payload, remoteAddress);
    return { status: res.statusCode, errorCode: res.json<{ errorCode?: string }>().errorCode };
  };
  const me = (token: string) =>
    server.app.inject({ url: '/api/users/@me', headers: { authorization: `Bearer ${token}` } });
  async function signIn(email: string, password = PASSWORD): Promise<TokenSet> {
    const res = await post('/auth/signin', { email, password });
    expect(res.statusCode, res.body).toBe(200);
    return authResultResponseSchema.parse(res.json()).result;
  }
  const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

  describe('per-account lockout', () => {
    it('counts e-mail, username and made-up team names of one account together', async () => {
      await createUser(server.ctx, { email: 'lock.one@example.com' }); // username lock.one
      // A username without a team or with a made-up one is answered teamRequired or teamNotFound,
      // and still counts against the account it names.
      const attempts = [
        [{ email: 'lock.one@example.com' }, 401, 'notAuthorized'],
        [{ email: 'LOCK.ONE@example.com' }, 401, 'notAuthorized'],
        [{ username: 'lock.one' }, 400, 'teamRequired'],
        [{ username: 'lock.one', team: 'made-up-team-1' }, 404, 'teamNotFound'],
        [{ username: 'lock.one', team: 'made-up-team-2' }, 404, 'teamNotFound'],
      ] as const;
      for (const [who, status, errorCode] of attempts) {
        expect(await signInStatus({ ...who, password: WRONG })).toEqual({ status, errorCode });
      }
      // A sixth name for the same account, even with the right password: locked.
      for (const who of [
        { username: 'lock.one', team: 'made-up-team-3' },
        { email: 'lock.one@example.com' },
      ]) {
        expect(await signInStatus({ ...who, password: PASSWORD })).toEqual({
          status: 429,
          errorCode: 'tooManyRequests',
        });
      }
      // 600 made-up teams do not give 600 guesses.
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          signInStatus({ username: 'lock.one', team: `made-up-${i}`, password: WRONG }),
        ),
      );
      expect(burst.every((r) => r.status === 429)).toBe(true);

      now += 16 * 60_000;
      try {
        expect((await signInStatus({ username: 'lock.one', password: PASSWORD })).status).toBe(200);
      } finally {
        now -= 16 * 60_000;
      }
    });

    it("counts an internal member's team id and every alias together", async () => {
      const owner = await createUser(server.ctx, { email: 'club.owner@example.com' });
      const team = await createTeam(server.ctx, { owner, alias: 'lock-club' });
      await server.ctx.db
        .insertInto('team_aliases')
        .values({ alias: 'lock-club-2', team_id: team.id, created_at: now, created_by: owner.id })
        .execute();
      await createInternalMember(server.ctx, {
        teamId: team.id,
        username: 'lock.member',
        password: 'Gener4ted-pw',
      });
      for (const ref of ['lock-club', 'LOCK-CLUB', 'lock-club-2', team.id, team.id.toUpperCase()]) {
        expect(await signInStatus({ username: 'lock.member', team: ref, password: WRONG })).toEqual(
          { status: 401, errorCode: 'notAuthorized' },
        );
      }
      expect(
        await signInStatus({
          username: 'lock.member',
          team: 'lock-club',
          password: 'Gener4ted-pw',
        }),
      ).toEqual({ status: 429, errorCode: 'tooManyRequests' });
    });

    it('answers unknown accounts exactly as known ones, whatever team is typed', async () => {
      await createUser(server.ctx, { email: 'known.one@example.com' });
      const sequence = async (username: string) => {
        const bodies: string[] = [];
        for (let i = 0; i < 7; i++) {
          const res = await post('/auth/signin', {
            username,
            team: `invented-${username}-${i}`,
            password: WRONG,
          });
          // The request's own id apart, every answer word for word.
          bodies.push(`${res.statusCode} ${res.body.replace(/"requestId":"[^"]+"/, '')}`);
        }
        return bodies;
      };
      const known = await sequence('known.one');
      const unknown = await sequence('nobody.here');
      expect(unknown).toEqual(known);
      expect(known.slice(0, 5).every((b) => b.startsWith('404 '))).toBe(true);
      expect(known[0]).toContain('"errorCode":"teamNotFound"');
      expect(known.slice(5).every((b) => b.startsWith('429 '))).toBe(true);
    });

    it('a password reset clears the account counter', async () => {
      await createUser(server.ctx, { email: 'reset.lock@example.com' });
      for (let i = 0; i < 5; i++) {
        await signInStatus({ username: 'reset.lock', password: WRONG });
      }
      expect(
        (await signInStatus({ email: 'reset.lock@example.com', password: PASSWORD })).status,
      ).toBe(429);
      await post('/auth/forgot-password', { email: 'reset.lock@example.com' });
      const mail = await smtp.waitFor((m) => m.to.includes('reset.lock@example.com'));
      const code = new URL(
        /https?:\/\/\S+\/auth\/reset\?\S+/.exec(mail.text)?.[0] ?? '',
      ).searchParams.get('code');
      const reset = await post('/auth/reset-password', {
        email: 'reset.lock@example.com',
        code,
        newPassword: 'N3w-password',
      });
      expect(reset.statusCode).toBe(200);
      expect(
        (await signInStatus({ username: 'reset.lock', password: 'N3w-password' })).status,
      ).toBe(200);
    });
  });

  describe('parallel guesses', () => {
    it('checks at most the limit of a burst of parallel wrong passwords', async () => {
      await createUser(server.ctx, { email: 'burst@example.com' });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          signInStatus({ email: 'burst@example.com', password: WRONG }),
        ),
      );
      expect(results.filter((r) => r.status === 401)).toHaveLength(5);
      expect(results.filter((r) => r.status === 429)).toHaveLength(15);
      expect(results.every((r) => r.status === 401 || r.errorCode === 'tooManyRequests')).toBe(
        true,
      );
      expect((await signInStatus({ email: 'burst@example.com', password: PASSWORD })).status).toBe(
        429,
      );
    });

    it('lets the right password through under the limit and then clears the count', async () => {
      await createUser(server.ctx, { email: 'mixed@example.com' });
      const wrong = () => signInStatus({ email: 'mixed@example.com', password: WRONG });
      // The right password in a parallel burst under the limit signs in.
      const burst = await Promise.all([
        wrong(),
        wrong(),
        wrong(),
        signInStatus({ email: 'mixed@example.com', password: PASSWORD }),
      ]);
      expect(burst.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
      // Its success cleared the counter: the three failures of the burst are forgotten (three
      // more now would make six, locked, without the clearing)...
      for (let i = 0; i < 3; i++) expect((await wrong()).status).toBe(401);
      expect((await signInStatus({ email: 'mixed@example.com', password: PASSWORD })).status).toBe(
        200,
      );
      // ...and after it, the limit counts from zero: five more failures, then 429.
      for (let i = 0; i < 5; i++) expect((await wrong()).status).toBe(401);
      expect((await wrong()).status).toBe(429);
    });

    it('checks at most the per-address limit of a parallel burst spread over many accounts', async () => {
      // The address already failed 15 times (of 30); the route's own in-memory limit allows one
      // address 20 requests a minute, so the burst is 20 from it, each naming another account.
      const ip = '10.250.250.250';
      await server.ctx.db
        .insertInto('rate_limits')
        .values({ key: `signin:ip:${ip}`, count: 15, reset_at: now + 15 * 60_000 })
        .execute();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          signInStatus({ email: `spread${i}@example.com`, password: WRONG }, ip),
        ),
      );
      expect(results.filter((r) => r.status === 401)).toHaveLength(15);
      expect(results.filter((r) => r.status === 429)).toHaveLength(5);
    });
  });

  describe('sign-up over an existing account', () => {
    it('never overwrites an unverified account; the link it mails answers its own sign-up', async () => {
      const first = await post('/auth/signup', {
        email: 'victim@example.com',
        password: PASSWORD,
        nickname: 'Victim',
        locale: 'it',
      });
      expect(first.statusCode).toBe(201);
      const { userId } = first.json<{ userId: string }>();
      await expect.poll(() => mailsTo('victim@example.com').length).toBe(1);
      const before = await server.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();

      const attack = {
        email: 'Victim@Example.com',
        password: 'Att4cker-pass',
        nickname: 'Attacker',
        locale: 'en',
      };
      const again = await post('/auth/signup', attack);
      await createUser(server.ctx, { email: 'verified.one@example.com' });
      const verified = await post('/auth/signup', { ...attack, email: 'verified.one@example.com' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ errorCode: 'userAlreadyExists' });
      // Word for word the same, but for the id of each request.
      const withoutId = (body: string) => body.replace(/"requestId":"[^"]+"/, '');
      expect(withoutId(again.body)).toBe(withoutId(verified.body));
      expect(again.body).not.toContain(userId);

      const after = await server.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      expect(after).toEqual(before);
      expect(await verifyPassword(after.password_hash, 'Att4cker-pass')).toBe(false);

      // The owner's own link no longer works; the new one keeps neither password.
      await expect.poll(() => mailsTo('victim@example.com').length).toBe(2);
      const linkOf = (index: number) =>
        new URL(
          /https?:\/\/\S+\/auth\/verify\?\S+/.exec(
            mailsTo('victim@example.com')[index]?.text ?? '',
          )?.[0] ?? '',
        );
      const verifyWith = (link: URL) =>
        post('/auth/verify-email', {
          email: 'victim@example.com',
          code: link.searchParams.get('code'),
          username: link.searchParams.get('username'),
        });
      expect((await verifyWith(linkOf(0))).json()).toMatchObject({
        errorCode: 'wrongVerificationCode',
      });
      const verify = await verifyWith(linkOf(1));
      expect(verify.statusCode).toBe(200);
      expect(verify.json<{ resetCode?: unknown }>().resetCode).toMatch(/^\S{20,}$/);
      for (const password of ['Att4cker-pass', PASSWORD]) {
        expect((await signInStatus({ email: 'victim@example.com', password })).status).toBe(401);
      }
    });
  });

  describe('sign-out', () => {
    const sign = (userId: string, claims: Record<string, unknown>, expSeconds: number) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(server.config.apiPublicUrl)
        .setAudience('raccolta-web')
        .setSubject(userId)
        .setIssuedAt(expSeconds - 3600)
        .setExpirationTime(expSeconds)
        .sign(deriveKey(server.config.secret, 'jwt'));

    it('refuses a body token of another user than the Authorization header, ending nothing', async () => {
      await createUser(server.ctx, { email: 'so.alice@example.com' });
      await createUser(server.ctx, { email: 'so.bob@example.com' });
      const alice = await signIn('so.alice@example.com');
      const bob = await signIn('so.bob@example.com');
      const mixed = await server.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        payload: { accessToken: bob.AccessToken },
        headers: { authorization: `Bearer ${alice.AccessToken}` },
        remoteAddress: freshIp(),
      });
      expect(mixed.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
      expect((await me(bob.AccessToken)).statusCode).toBe(200);
      expect((await me(alice.AccessToken)).statusCode).toBe(200);
      // The same user in both, or the body alone, signs out as before.
      const own = await server.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        payload: { accessToken: bob.AccessToken },
        headers: { authorization: `Bearer ${bob.AccessToken}` },
        remoteAddress: freshIp(),
      });
      expect(own.statusCode).toBe(200);
      expect((await me(bob.AccessToken)).statusCode).toBe(401);
      expect((await post('/auth/signout', { accessToken: alice.AccessToken })).statusCode).toBe(
        200,
      );
      expect((await me(alice.AccessToken)).statusCode).toBe(401);
    });

    it('refuses an access token that expired a year ago', async () => {
      const user = await createUser(server.ctx, { email: 'stale.exp@example.com' });
      const session = await signIn('stale.exp@example.com');
      const yearOld = await sign(
        user.id,
        { token_use: 'access', sv: 0 },
        Math.floor(now / 1000) - 365 * 24 * 3600,
      );
      const res = await post('/auth/signout', { accessToken: yearOld });
      expect(res.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
      // Nothing was ended.
      expect((await me(session.AccessToken)).statusCode).toBe(200);
      expect((await post('/auth/refresh', { refreshToken: session.RefreshToken })).statusCode).toBe(
        200,
      );
    });

    it('refuses a token that expired since it was issued', async () => {
      await createUser(server.ctx, { email: 'stale.late@example.com' });
      const session = await signIn('stale.late@example.com');
      now += 2 * 3600_000;
      try {
        const res = await post('/auth/signout', { accessToken: session.AccessToken });
        expect(res.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
      } finally {
        now -= 2 * 3600_000;
      }
      expect((await me(session.AccessToken)).statusCode).toBe(200);
    });

    it('refuses a token of an older token version', async () => {
      await createUser(server.ctx, { email: 'stale.ver@example.com' });
      const old = await signIn('stale.ver@example.com');
      expect((await post('/auth/signout', { accessToken: old.AccessToken })).statusCode).toBe(200);
      const current = await signIn('stale.ver@example.com');
      const res = await post('/auth/signout', { accessToken: old.AccessToken });
      expect(res.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
      expect((await me(current.AccessToken)).statusCode).toBe(200);
      expect((await post('/auth/refresh', { refreshToken: current.RefreshToken })).statusCode).toBe(
        200,
      );
      // The current token still signs out.
      expect((await post('/auth/signout', { accessToken: current.AccessToken })).statusCode).toBe(
        200,
      );
      expect((await me(current.AccessToken)).statusCode).toBe(401);
    });

    it('refuses tokens that are not access tokens or belong to nobody', async () => {
      const user = await createUser(server.ctx, { email: 'stale.kind@example.com' });
      const session = await signIn('stale.kind@example.com');
      const exp = Math.floor(now / 1000) + 600;
      for (const accessToken of [
        session.IdToken,
        await sign('00000000-0000-4000-8000-000000000000', { token_use: 'access', sv: 0 }, exp),
        await sign(user.id, { token_use: 'access' }, exp),
      ]) {
        expect((await post('/auth/signout', { accessToken })).json()).toMatchObject({
          statusCode: 401,
          errorCode: 'invalidAuthorization',
        });
      }
      expect((await me(session.AccessToken)).statusCode).toBe(200);
    });
  });
});

describe('abuse: the per-address counter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SIGNIN_MAX_FAILURES_PER_IP: '3' });
  });
  afterAll(() => server.close());

  const signIn = (email: string, password: string, remoteAddress: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password },
      remoteAddress,
    });

  it('counts failures only: successes give the address its attempt back', async () => {
    await createUser(server.ctx, { email: 'often@example.com' });
    for (let i = 0; i < 5; i++) {
      expect((await signIn('often@example.com', PASSWORD, '10.8.0.1')).statusCode).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      expect((await signIn(`x${i}@example.com`, WRONG, '10.8.0.1')).statusCode).toBe(401);
    }
    expect((await signIn('often@example.com', PASSWORD, '10.8.0.1')).json()).toMatchObject({
      statusCode: 429,
      errorCode: 'tooManyRequests',
    });
  });

  it('a blocked address does not use up the attempts of the account it names', async () => {
    await createUser(server.ctx, { email: 'target@example.com' });
    for (let i = 0; i < 3; i++) await signIn(`y${i}@example.com`, WRONG, '10.8.0.2');
    for (let i = 0; i < 10; i++) {
      expect((await signIn('target@example.com', WRONG, '10.8.0.2')).statusCode).toBe(429);
    }
    // The account's own limit (5) is untouched: four failures elsewhere, then its owner signs in.
    for (let i = 0; i < 4; i++) {
      expect((await signIn('target@example.com', WRONG, `10.8.1.${i}`)).statusCode).toBe(401);
    }
    expect((await signIn('target@example.com', PASSWORD, '10.8.2.1')).statusCode).toBe(200);
  });
});
