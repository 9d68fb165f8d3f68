import { authResultResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The abuse suite (issue 12), invitations: inviting an address must not squat it (the invited
 * person's own sign-up completes the account once the mailbox is proven), and invitations are
 * limited per inviter and per recipient. SQLite and PostgreSQL.
 */
let ipSeq = 0;
const freshIp = () => {
  ipSeq += 1;
  return `10.${220 + Math.floor(ipSeq / 250)}.${ipSeq % 250}.5`;
};

describe('abuse: invitations', () => {
  let smtp: SmtpCapture;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(
      {
        MAIL_TRANSPORT: 'smtp',
        SMTP_URL: smtp.url,
        INVITATIONS_PER_INVITER_PER_DAY: '6',
        INVITATIONS_PER_RECIPIENT_PER_DAY: '2',
      },
      { worker: true },
    );
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const post = (url: string, payload: object, token?: string) =>
    server.app.inject({
      method: 'POST',
      url: `/api${url}`,
      payload,
      remoteAddress: freshIp(),
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
  const signInRes = (email: string, password: string) => post('/auth/signin', { email, password });
  async function tokenOf(email: string, password = TEST_PASSWORD): Promise<string> {
    const res = await signInRes(email, password);
    expect(res.statusCode, res.body).toBe(200);
    return authResultResponseSchema.parse(res.json()).result.AccessToken;
  }
  async function ownerOfNewTeam(email: string) {
    const owner = await createUser(server.ctx, { email });
    const team = await createTeam(server.ctx, { owner });
    return { team, token: await tokenOf(email) };
  }
  const invite = (teamId: string, token: string, email: string, nickname = 'Guest') =>
    post(`/teams/${teamId}/members`, { email, nickname, role: 'uploader', locale: 'en' }, token);
  const signUp = (email: string, password: string, nickname: string) =>
    post('/auth/signup', { email, password, nickname, locale: 'it' });
  /** The verification link of the newest mail to `email` that carries one. */
  async function verifyLink(email: string, count: number): Promise<URL> {
    await smtp.waitFor(
      () =>
        smtp.messages.filter((m) => m.to.includes(email) && /auth\/verify\?/.test(m.text)).length >=
        count,
    );
    const mails = smtp.messages.filter(
      (m) => m.to.includes(email) && /auth\/verify\?/.test(m.text),
    );
    return new URL(/https?:\/\/\S+\/auth\/verify\?\S+/.exec(mails.at(-1)?.text ?? '')?.[0] ?? '');
  }
  const verify = (link: URL) =>
    post('/auth/verify-email', {
      code: link.searchParams.get('code'),
      email: link.searchParams.get('email'),
      username: link.searchParams.get('username'),
    });

  it("the invited person's own sign-up completes the account, usable once the mailbox is verified", async () => {
    const { team, token } = await ownerOfNewTeam('squat.owner@example.com');
    expect((await invite(team.id, token, 'invited.one@example.com')).statusCode).toBe(201);

    const res = await signUp('invited.one@example.com', 'Own-passw0rd', 'Ines');
    expect(res.statusCode, res.body).toBe(201);
    // Nothing is usable before the mailbox is proven.
    expect((await signInRes('invited.one@example.com', 'Own-passw0rd')).statusCode).toBe(401);

    const link = await verifyLink('invited.one@example.com', 1);
    const verified = await verify(link);
    expect(verified.statusCode).toBe(200);
    // The link proved the mailbox, not the password of the sign-up: the person chooses it again.
    expect((await signInRes('invited.one@example.com', 'Own-passw0rd')).statusCode).toBe(401);
    const { resetCode } = verified.json<{ resetCode: string }>();
    const reset = await server.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'invited.one@example.com', code: resetCode, newPassword: 'Own-passw0rd' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const own = await tokenOf('invited.one@example.com', 'Own-passw0rd');
    const me = await server.app.inject({
      url: '/api/users/@me',
      headers: { authorization: `Bearer ${own}` },
    });
    expect(me.json()).toMatchObject({ nickname: 'Ines' });
    // The scope of a self sign-up: they can create their own team.
    const created = await post('/teams', { name: 'Mine', mode: 'collaborative' }, own);
    expect(created.statusCode, created.body).toBe(201);
  });

  it('whoever signs up first with an invited address gets nothing; the owner signs up all the same', async () => {
    const { team, token } = await ownerOfNewTeam('squat.owner2@example.com');
    expect((await invite(team.id, token, 'invited.two@example.com')).statusCode).toBe(201);

    // A squatter signs up first, with a password of their own.
    expect((await signUp('invited.two@example.com', 'Squatt3r-pw', 'Squatter')).statusCode).toBe(
      201,
    );
    expect((await signInRes('invited.two@example.com', 'Squatt3r-pw')).statusCode).toBe(401);
    const squatterLink = await verifyLink('invited.two@example.com', 1);

    // The owner of the mailbox is not blocked, and their link is the one that counts.
    expect((await signUp('invited.two@example.com', 'Own3r-passw', 'Owner')).statusCode).toBe(201);
    const ownerLink = await verifyLink('invited.two@example.com', 2);
    expect(ownerLink.searchParams.get('code')).not.toBe(squatterLink.searchParams.get('code'));
    expect((await verify(squatterLink)).statusCode).toBe(400);
    const verified = await verify(ownerLink);
    expect(verified.statusCode).toBe(200);
    // Neither password was proven by the link: the owner of the mailbox chooses one.
    expect((await signInRes('invited.two@example.com', 'Squatt3r-pw')).statusCode).toBe(401);
    const reset = await server.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: {
        email: 'invited.two@example.com',
        code: verified.json<{ resetCode: string }>().resetCode,
        newPassword: 'Own3r-passw',
      },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await signInRes('invited.two@example.com', 'Own3r-passw')).statusCode).toBe(200);
    expect((await signInRes('invited.two@example.com', 'Squatt3r-pw')).statusCode).toBe(401);
  });

  it('an invitee who opens a link of a sign-up made by someone else keeps no stranger’s password', async () => {
    const { team, token } = await ownerOfNewTeam('squat.owner3@example.com');
    expect((await invite(team.id, token, 'invited.three@example.com')).statusCode).toBe(201);
    expect((await signUp('invited.three@example.com', 'Squatt3r-pw', 'Squatter')).statusCode).toBe(
      201,
    );
    // The invitee opens the unexpected "confirm your e-mail".
    const verified = await verify(await verifyLink('invited.three@example.com', 1));
    expect(verified.json<{ resetCode?: unknown }>().resetCode).toMatch(/^\S{20,}$/);
    expect((await signInRes('invited.three@example.com', 'Squatt3r-pw')).statusCode).toBe(401);
  });

  it('limits invitations per recipient and per inviter a day: tooManyRequests', async () => {
    const a = await ownerOfNewTeam('limit.a@example.com');
    const b = await ownerOfNewTeam('limit.b@example.com');
    const c = await ownerOfNewTeam('limit.c@example.com');
    expect((await invite(a.team.id, a.token, 'popular@example.com')).statusCode).toBe(201);
    expect((await invite(b.team.id, b.token, 'popular@example.com')).statusCode).toBe(201);
    expect((await invite(c.team.id, c.token, 'popular@example.com')).json()).toMatchObject({
      statusCode: 429,
      errorCode: 'tooManyRequests',
    });

    // a has sent 1; 5 more pass, the next is refused.
    for (let i = 0; i < 5; i++) {
      const res = await invite(
        a.team.id,
        a.token,
        `spam${i}@example.com`,
        `Spam ${'abcdefghij'[i]}`,
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(
      (await invite(a.team.id, a.token, 'spam9@example.com', 'Spam Zed')).json(),
    ).toMatchObject({
      statusCode: 429,
      errorCode: 'tooManyRequests',
    });
  });
});
