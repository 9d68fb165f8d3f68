import {
  authResultResponseSchema,
  sessionsResponseSchema,
  type Session,
  type TokenSet,
} from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInternalMember,
  createTeam,
  createUser,
  TEST_PASSWORD,
} from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const UA = {
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  chromeWindowsNewer:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};

/** The device as the web app shows it in English. */
const deviceOf = (s: Session) => [s.browser, s.os].filter((part) => part !== null).join(' on ');

describe('sessions people can see, and security e-mails', () => {
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

  // Each request from its own address in 198.51.0.0/16, so the per-address sign-in limit of the
  // auth routes does not add up over the file.
  let requests = 0;
  const nextAddress = () => {
    requests += 1;
    return `198.51.${Math.floor(requests / 250) % 250}.${(requests % 250) + 1}`;
  };
  const inject = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    opts: { token?: string; payload?: object; ua?: string } = {},
  ) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      remoteAddress: nextAddress(),
      ...(opts.payload ? { payload: opts.payload } : {}),
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.ua ? { 'user-agent': opts.ua } : {}),
      },
    });
  async function signIn(email: string, ua: string): Promise<TokenSet> {
    const res = await inject('POST', '/auth/signin', {
      payload: { email, password: TEST_PASSWORD },
      ua,
    });
    expect(res.statusCode, res.body).toBe(200);
    return authResultResponseSchema.parse(res.json()).result;
  }
  async function list(token: string): Promise<Session[]> {
    const res = await inject('GET', '/users/@me/sessions', { token });
    expect(res.statusCode, res.body).toBe(200);
    return sessionsResponseSchema.parse(res.json()).sessions;
  }
  const refresh = (refreshToken: string | undefined) =>
    inject('POST', '/auth/refresh', { payload: { refreshToken: refreshToken ?? '' } });
  const me = (token: string) => inject('GET', '/users/@me', { token });
  /** Security notices queued for an address (sent or not): the mail job's payloads. */
  async function noticesTo(email: string): Promise<string[]> {
    const jobs = await server.ctx.db
      .selectFrom('jobs')
      .select('payload')
      .where('queue', '=', 'mail.send')
      .execute();
    return jobs
      .map(
        (job) =>
          JSON.parse(job.payload) as { to: string; template: string; vars: { kind?: string } },
      )
      .filter((mail) => mail.to === email && mail.template === 'securityNotice')
      .map((mail) => mail.vars.kind ?? '');
  }

  it('lists the live sessions with their devices, the current one marked, newest use first', async () => {
    const user = await createUser(server.ctx, { email: 'list@example.com' });
    const phone = await signIn('list@example.com', UA.firefoxAndroid);
    now += 60_000;
    const laptop = await signIn('list@example.com', UA.chromeWindows);

    const seen = await list(laptop.AccessToken);
    expect(seen).toHaveLength(2);
    expect(seen.map((s) => [deviceOf(s), s.current])).toEqual([
      ['Chrome on Windows', true],
      ['Firefox on Android', false],
    ]);
    expect(seen[1]?.createdAt).toBe(new Date(now - 60_000).toISOString());
    // The same list from the other device marks that one.
    expect((await list(phone.AccessToken)).map((s) => s.current)).toEqual([false, true]);
    // The user agent is kept, cut; of the address only a coarse hint, never the address.
    const rows = await server.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((r) => r.user_agent).sort()).toEqual(
      [UA.chromeWindows, UA.firefoxAndroid].sort(),
    );
    for (const row of rows) expect(row.ip_hint).toBe('198.51.x.x');
    expect((await inject('GET', '/users/@me/sessions')).json()).toMatchObject({
      statusCode: 401,
      errorCode: 'authorizationRequired',
    });
  });

  it('moves last used on refresh, and the list order with it', async () => {
    await createUser(server.ctx, { email: 'used@example.com' });
    const phone = await signIn('used@example.com', UA.firefoxAndroid);
    now += 60_000;
    const laptop = await signIn('used@example.com', UA.chromeWindows);
    now += 5 * 60_000;
    const res = await refresh(phone.RefreshToken);
    expect(res.statusCode).toBe(200);
    const renewed = authResultResponseSchema.parse(res.json()).result;

    const seen = await list(laptop.AccessToken);
    expect(seen.map((s) => deviceOf(s))).toEqual(['Firefox on Android', 'Chrome on Windows']);
    expect(seen[0]?.lastUsedAt).toBe(new Date(now).toISOString());
    expect(seen[0]?.createdAt).toBe(new Date(now - 6 * 60_000).toISOString());
    expect(seen[1]?.lastUsedAt).toBe(new Date(now - 5 * 60_000).toISOString());
    // The refreshed access token still names its session.
    expect((await list(renewed.AccessToken)).find((s) => s.current)).toMatchObject({
      browser: 'Firefox',
      os: 'Android',
    });
  });

  it('signs one session out: its refresh and access tokens fail, the others keep working', async () => {
    await createUser(server.ctx, { email: 'one@example.com' });
    const phone = await signIn('one@example.com', UA.firefoxAndroid);
    const laptop = await signIn('one@example.com', UA.chromeWindows);
    const tablet = await signIn('one@example.com', UA.safariIphone);
    const phoneId = (await list(phone.AccessToken)).find((s) => s.current)?.sessionId ?? '';

    const del = await inject('DELETE', `/users/@me/sessions/${phoneId}`, {
      token: laptop.AccessToken,
    });
    expect(del.statusCode, del.body).toBe(204);
    expect((await me(phone.AccessToken)).json()).toMatchObject({
      statusCode: 401,
      errorCode: 'invalidAuthorization',
    });
    expect((await refresh(phone.RefreshToken)).json()).toMatchObject({
      statusCode: 401,
      errorCode: 'invalidAuthorization',
    });
    expect((await me(laptop.AccessToken)).statusCode).toBe(200);
    expect((await me(tablet.AccessToken)).statusCode).toBe(200);
    expect((await refresh(tablet.RefreshToken)).statusCode).toBe(200);
    expect((await list(laptop.AccessToken)).map((s) => deviceOf(s)).sort()).toEqual([
      'Chrome on Windows',
      'Safari on iOS',
    ]);
    // Signed out already: gone from the list, and a second delete finds nothing.
    expect(
      (
        await inject('DELETE', `/users/@me/sessions/${phoneId}`, { token: laptop.AccessToken })
      ).json(),
    ).toMatchObject({ statusCode: 404, errorCode: 'notFound' });
  });

  it("answers 404 for another user's session and for an unknown id, and ends nothing", async () => {
    await createUser(server.ctx, { email: 'mine@example.com' });
    await createUser(server.ctx, { email: 'theirs@example.com' });
    const mine = await signIn('mine@example.com', UA.chromeWindows);
    const theirs = await signIn('theirs@example.com', UA.chromeWindows);
    const theirId = (await list(theirs.AccessToken))[0]?.sessionId ?? '';
    for (const id of [theirId, 'no-such-session', '0'.repeat(36)]) {
      const res = await inject('DELETE', `/users/@me/sessions/${id}`, { token: mine.AccessToken });
      expect(res.json()).toMatchObject({ statusCode: 404, errorCode: 'notFound' });
    }
    expect((await me(theirs.AccessToken)).statusCode).toBe(200);
    expect((await refresh(theirs.RefreshToken)).statusCode).toBe(200);
    const tooLong = await inject('DELETE', `/users/@me/sessions/${'x'.repeat(65)}`, {
      token: mine.AccessToken,
    });
    expect(tooLong.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
  });

  it('signs out everywhere else, keeping the current session', async () => {
    await createUser(server.ctx, { email: 'others@example.com' });
    const phone = await signIn('others@example.com', UA.firefoxAndroid);
    const tablet = await signIn('others@example.com', UA.safariIphone);
    const laptop = await signIn('others@example.com', UA.chromeWindows);
    const res = await inject('POST', '/users/@me/sessions/revoke-others', {
      token: laptop.AccessToken,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    for (const gone of [phone, tablet]) {
      expect((await me(gone.AccessToken)).statusCode).toBe(401);
      expect((await refresh(gone.RefreshToken)).statusCode).toBe(401);
    }
    expect((await list(laptop.AccessToken)).map((s) => [deviceOf(s), s.current])).toEqual([
      ['Chrome on Windows', true],
    ]);
    expect((await refresh(laptop.RefreshToken)).statusCode).toBe(200);
  });

  it('e-mails a sign-in from a new device once, never the first sign-in or a known device', async () => {
    await createUser(server.ctx, { email: 'newdev@example.com', nickname: 'Nina' });
    await signIn('newdev@example.com', UA.chromeWindows); // the first sign-in
    await signIn('newdev@example.com', UA.chromeWindowsNewer); // a browser update: same device
    expect(await noticesTo('newdev@example.com')).toEqual([]);

    await signIn('newdev@example.com', UA.firefoxAndroid);
    const mail = await smtp.waitFor(
      (m) => m.to.includes('newdev@example.com') && /new sign-in/i.test(m.subject),
    );
    expect(mail.subject).toBe('New sign-in to your Raccolta account');
    expect(mail.text).toContain('Hi Nina,');
    expect(mail.text).toContain('Firefox on Android');
    expect(mail.text).toContain("This wasn't you?");
    expect(mail.text).toContain('sign out every other device');
    const link = new URL(/https?:\/\/\S+\/auth\/forgot\?\S+/.exec(mail.text)?.[0] ?? '');
    expect(link.searchParams.get('email')).toBe('newdev@example.com');
    expect(mail.html).toContain('Firefox on Android');

    // That device is known now, signed in or out.
    const again = await signIn('newdev@example.com', UA.firefoxAndroid);
    await inject('POST', '/users/@me/sessions/revoke-others', { token: again.AccessToken });
    await inject('POST', '/auth/signout', { payload: { accessToken: again.AccessToken } });
    await signIn('newdev@example.com', UA.firefoxAndroid);
    expect(await noticesTo('newdev@example.com')).toEqual(['newDevice']);
  });

  it('writes to an Italian user in Italian', async () => {
    await createUser(server.ctx, { email: 'lucia@example.com', nickname: 'Lucia', locale: 'it' });
    await signIn('lucia@example.com', UA.chromeWindows);
    await signIn('lucia@example.com', UA.safariIphone);
    const mail = await smtp.waitFor((m) => m.to.includes('lucia@example.com'));
    expect(mail.subject).toBe('Nuovo accesso al tuo account Raccolta');
    expect(mail.text).toContain('Ciao Lucia,');
    expect(mail.text).toContain('Safari su iOS');
    expect(mail.text).toContain('Non eri tu?');
    expect(mail.html).toContain('<html lang="it">');
  });

  it('e-mails a password change by reset', async () => {
    await createUser(server.ctx, { email: 'pwd@example.com', locale: 'en' });
    await inject('POST', '/auth/forgot-password', { payload: { email: 'pwd@example.com' } });
    const reset = await smtp.waitFor((m) => m.to.includes('pwd@example.com'));
    const code = new URL(
      /https?:\/\/\S+\/auth\/reset\?\S+/.exec(reset.text)?.[0] ?? '',
    ).searchParams.get('code');
    const ok = await inject('POST', '/auth/reset-password', {
      payload: { email: 'pwd@example.com', code, newPassword: 'N3w-password' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const mail = await smtp.waitFor(
      (m) => m.to.includes('pwd@example.com') && /was changed/.test(m.subject),
    );
    expect(mail.subject).toBe('Your Raccolta password was changed');
    expect(mail.text).toContain('Every device that was signed in has been signed out.');
    expect(mail.text).toMatch(/https?:\/\/\S+\/auth\/forgot\?email=pwd%40example.com\n/);
  });

  it('sends nothing to an internal member, who has no e-mail', async () => {
    const owner = await createUser(server.ctx, { email: 'club-owner@example.com' });
    const team = await createTeam(server.ctx, { owner, alias: 'notice-club' });
    const member = await createInternalMember(server.ctx, {
      teamId: team.id,
      username: 'gino',
      password: 'Gener4ted-pw',
    });
    const first = await inject('POST', '/auth/signin', {
      payload: { username: 'gino', password: 'Gener4ted-pw', team: 'notice-club' },
      ua: UA.chromeWindows,
    });
    const { data } = first.json<{ data: object }>();
    const set = await inject('POST', '/auth/new-password', {
      payload: { ...data, newPassword: 'M1o-password' },
      ua: UA.chromeWindows,
    });
    expect(set.statusCode, set.body).toBe(200);
    const other = await inject('POST', '/auth/signin', {
      payload: { username: 'gino', password: 'M1o-password', team: 'notice-club' },
      ua: UA.firefoxAndroid,
    });
    expect(other.statusCode).toBe(200);
    const tokens = authResultResponseSchema.parse(other.json()).result;
    expect((await list(tokens.AccessToken)).map((s) => deviceOf(s)).sort()).toEqual([
      'Chrome on Windows',
      'Firefox on Android',
    ]);
    // The member's password change and new device would each be a notice: none is queued.
    expect(member.email).toBeNull();
    const jobs = await server.ctx.db
      .selectFrom('jobs')
      .select('payload')
      .where('queue', '=', 'mail.send')
      .execute();
    expect(
      jobs.filter((j) => j.payload.includes('"securityNotice"') && j.payload.includes('"gino"')),
    ).toEqual([]);
  });
});
