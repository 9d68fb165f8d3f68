import type { UserRow } from '../../src/users/users.repository.js';
import { createTeam, createUser } from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from './world.js';

export const STRONG_PASSWORD = 'N3w-passw0rd';
export const DAY = 24 * 60 * 60_000;

type Method = 'GET' | 'POST' | 'DELETE';

/**
 * The app with the worker sending real SMTP to a capture, on a clock the test moves, and a team
 * whose owner invites; helpers call the member and invitation endpoints and read the mails.
 */
export async function startInvitationEnv() {
  const smtp: SmtpCapture = await startSmtpCapture();
  const clock = { now: Date.now() };
  const server: TestServer = await startTestServer(
    { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100000' },
    { worker: true, clock: () => clock.now },
  );
  const owner: UserRow = await createUser(server.ctx, {
    email: 'olga@example.com',
    nickname: 'Olga',
  });
  const team = await createTeam(server.ctx, { owner, name: 'Coro San Marco', alias: 'coro' });
  let ip = 0;

  // A fresh token each time: the test clock moves days ahead, past any access token's life.
  const asOwner = () => accessToken(server.ctx, owner);
  const call = (method: Method, url: string, payload?: object, token?: string) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      // A fresh address per call: the invitation routes have a tight per-address limit.
      remoteAddress: `10.2.${++ip >> 8}.${ip & 255}`,
      ...(payload ? { payload } : {}),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  async function linksFor(email: string, after = 0) {
    const mail = await smtp.waitFor(
      (m) => m.to.includes(email) && smtp.messages.indexOf(m) >= after,
    );
    const find = (kind: string) => {
      const pattern = new RegExp(
        `https?://\\S+/teams/${team.id}/invitations/${kind}\\?key=[\\w-]+`,
      );
      const link = pattern.exec(mail.text)?.[0];
      if (!link) throw new Error(`no ${kind} link in ${mail.text}`);
      return new URL(link);
    };
    const acceptLink = find('accept');
    const rejectLink = find('reject');
    return { mail, acceptLink, rejectLink, key: acceptLink.searchParams.get('key') ?? '' };
  }

  return {
    smtp,
    server,
    clock,
    owner,
    team,
    call,
    asOwner,
    invite: async (body: object) =>
      call('POST', `/teams/${team.id}/members`, body, await asOwner()),
    accept: (body: object, token?: string) =>
      call('POST', `/teams/${team.id}/invitations/accept`, body, token),
    reject: (body: object, token?: string) =>
      call('POST', `/teams/${team.id}/invitations/reject`, body, token),
    linksFor,
    memberRow: (userId: string) =>
      server.ctx.db
        .selectFrom('team_members')
        .selectAll()
        .where('team_id', '=', team.id)
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    async close() {
      await server.close();
      await smtp.close();
    },
  };
}

export type InvitationEnv = Awaited<ReturnType<typeof startInvitationEnv>>;
