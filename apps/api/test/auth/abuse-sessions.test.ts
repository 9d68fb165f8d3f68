import { authResultResponseSchema, type TokenSet } from '@raccolta/contracts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey } from '../../src/auth/secrets.js';
import { createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The abuse suite (issue 12), sessions and mail: forgot-password that reveals nothing by its work,
 * a mail limit per recipient, refresh-token reuse, strict bearer headers and token claims, and
 * the headers that keep tokens and personal data out of caches. SQLite and PostgreSQL.
 */
let ipSeq = 0;
const freshIp = () => {
  ipSeq += 1;
  return `10.${200 + Math.floor(ipSeq / 250)}.${ipSeq % 250}.3`;
};

describe('abuse: sessions, mail and headers', () => {
  let smtp: SmtpCapture;
  let server: TestServer;
  let quiet: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(
      { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url },
      { worker: true },
    );
    // No worker: what a request itself writes stays visible.
    quiet = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await quiet.close();
    await smtp.close();
  });

  const post = (s: TestServer, url: string, payload: object) =>
    s.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress: freshIp() });
  const me = (token: string, authorization = `Bearer ${token}`) =>
    server.app.inject({ url: '/api/users/@me', headers: { authorization } });
  async function signIn(email: string): Promise<TokenSet> {
    const res = await post(server, '/auth/signin', { email, password: TEST_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    return authResultResponseSchema.parse(res.json()).result;
  }

  describe('forgot password', () => {
    /** Rows a request wrote, by table, for the tables forgot-password may write. */
    async function writesOf(email: string): Promise<Record<string, number>> {
      const count = async (table: 'jobs' | 'one_time_codes' | 'rate_limits') =>
        Number(
          (
            await quiet.ctx.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = {
        jobs: await count('jobs'),
        codes: await count('one_time_codes'),
        limits: await count('rate_limits'),
      };
      const res = await post(quiet, '/auth/forgot-password', { email });
      expect(res.statusCode).toBe(200);
      return {
        jobs: (await count('jobs')) - before.jobs,
        codes: (await count('one_time_codes')) - before.codes,
        limits: (await count('rate_limits')) - before.limits,
      };
    }

    it('does the same work for an unknown address as for an account', async () => {
      await createUser(quiet.ctx, { email: 'known.reset@example.com' });
      const known = await writesOf('known.reset@example.com');
      const unknown = await writesOf('unknown.reset@example.com');
      expect(unknown).toEqual(known);
      // The request writes one job and looks nothing up that tells the two apart.
      expect(known).toEqual({ jobs: 1, codes: 0, limits: 0 });
    });

    it('still mails the link to an account, and nothing to an unknown address', async () => {
      await createUser(server.ctx, { email: 'mailed.reset@example.com' });
      await post(server, '/auth/forgot-password', { email: 'nobody.reset@example.com' });
      await post(server, '/auth/forgot-password', { email: 'Mailed.Reset@example.com' });
      const mail = await smtp.waitFor((m) => m.to.includes('mailed.reset@example.com'));
      expect(mail.text).toMatch(/\/auth\/reset\?/);
      expect(smtp.messages.filter((m) => m.to.includes('nobody.reset@example.com'))).toEqual([]);
    });
  });

  describe('mails per recipient', () => {
    async function settled(): Promise<void> {
      for (let i = 0; i < 200; i++) {
        const busy = await server.ctx.db
          .selectFrom('jobs')
          .select('id')
          .where('status', 'in', ['pending', 'running'])
          .where('queue', 'in', ['auth.password-reset', 'mail.send'])
          .executeTakeFirst();
        if (!busy) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('jobs did not settle');
    }

    it('sends one address at most 5 account mails an hour, however many are asked for', async () => {
      await createUser(server.ctx, { email: 'flooded@example.com' });
      for (let i = 0; i < 9; i++) {
        const res = await post(server, '/auth/forgot-password', { email: 'flooded@example.com' });
        expect(res.statusCode).toBe(200);
      }
      await settled();
      expect(smtp.messages.filter((m) => m.to.includes('flooded@example.com'))).toHaveLength(5);
    });
  });

  describe('refresh-token reuse', () => {
    it("ends the family's refresh tokens and the user's access tokens", async () => {
      await createUser(server.ctx, { email: 'reuse@example.com' });
      const first = await signIn('reuse@example.com');
      const rotated = await post(server, '/auth/refresh', { refreshToken: first.RefreshToken });
      expect(rotated.statusCode).toBe(200);
      const second = authResultResponseSchema.parse(rotated.json()).result;
      expect((await me(second.AccessToken)).statusCode).toBe(200);

      // The first refresh token, presented again: someone holds a copy.
      const reuse = await post(server, '/auth/refresh', { refreshToken: first.RefreshToken });
      expect(reuse.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
      for (const token of [first.AccessToken, second.AccessToken]) {
        expect((await me(token)).json()).toMatchObject({ errorCode: 'invalidAuthorization' });
      }
      const next = await post(server, '/auth/refresh', { refreshToken: second.RefreshToken });
      expect(next.statusCode).toBe(401);
      // Signing in again works.
      expect((await me((await signIn('reuse@example.com')).AccessToken)).statusCode).toBe(200);
    });
  });

  describe('bearer tokens', () => {
    it('refuses anything after the token, and other malformed headers', async () => {
      await createUser(server.ctx, { email: 'bearer@example.com' });
      const { AccessToken } = await signIn('bearer@example.com');
      expect((await me(AccessToken)).statusCode).toBe(200);
      expect((await me(AccessToken, `bearer ${AccessToken}`)).statusCode).toBe(200);
      for (const header of [
        `Bearer ${AccessToken} junk`,
        `Bearer ${AccessToken} `,
        `Bearer  ${AccessToken}`,
        `Bearer ${AccessToken}\tjunk`,
        `Bearer ${AccessToken},Bearer ${AccessToken}`,
        `Basic ${AccessToken}`,
        'Bearer',
      ]) {
        expect((await me(AccessToken, header)).json(), header).toMatchObject({
          statusCode: 401,
          errorCode: 'invalidAuthorization',
        });
      }
    });

    it('refuses a token without an expiry', async () => {
      const user = await createUser(server.ctx, { email: 'no.exp@example.com' });
      const token = await new SignJWT({ token_use: 'access', sv: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(server.config.apiPublicUrl)
        .setAudience('raccolta-web')
        .setSubject(user.id)
        .setIssuedAt()
        .sign(deriveKey(server.config.secret, 'jwt'));
      expect((await me(token)).json()).toMatchObject({
        statusCode: 401,
        errorCode: 'invalidAuthorization',
      });
      const signOut = await post(server, '/auth/signout', { accessToken: token });
      expect(signOut.json()).toMatchObject({ errorCode: 'invalidAuthorization' });
    });
  });

  describe('response headers', () => {
    it('keeps token and personal-data answers out of caches, errors included', async () => {
      await createUser(server.ctx, { email: 'headers@example.com' });
      const signin = await post(server, '/auth/signin', {
        email: 'headers@example.com',
        password: TEST_PASSWORD,
      });
      const { AccessToken } = authResultResponseSchema.parse(signin.json()).result;
      const responses = [
        signin,
        await me(AccessToken),
        await me('nope'),
        await post(server, '/auth/refresh', { refreshToken: 'nope' }),
        await server.app.inject({
          url: '/api/teams',
          headers: { authorization: `Bearer ${AccessToken}` },
        }),
        await server.app.inject({ url: '/api/no-such-route' }),
      ];
      for (const res of responses) {
        expect(res.headers['cache-control'], res.body).toBe('no-store');
      }
    });

    it('denies browser features no page uses, on every response', async () => {
      for (const url of ['/api/status', '/api/no-such-route', '/no-such-page']) {
        const res = await server.app.inject({ url });
        const policy = String(res.headers['permissions-policy']);
        for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()']) {
          expect(policy, url).toContain(feature);
        }
      }
    });
  });
});
