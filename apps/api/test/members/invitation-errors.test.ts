import { memberSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startInvitationEnv, STRONG_PASSWORD, type InvitationEnv } from './invitation-env.js';

describe('invitations: refusals and failures', () => {
  let env: InvitationEnv;
  beforeAll(async () => {
    env = await startInvitationEnv();
  });
  afterAll(() => env.close());

  it('does not find unknown tokens, tokens of another team, or invitations withdrawn', async () => {
    const other = await createTeam(env.server.ctx, {
      owner: env.owner,
      name: 'Other',
      alias: 'altro',
    });
    const res = await env.invite({
      email: 'ugo@example.com',
      nickname: 'Ugo',
      role: 'viewer',
      locale: 'en',
    });
    const userId = memberSchema.parse(res.json<{ member: unknown }>().member).userId;
    const { key } = await env.linksFor('ugo@example.com');

    expect((await env.accept({ token: 'x'.repeat(43) })).json()).toMatchObject({
      statusCode: 404,
      errorCode: 'invitationNotFound',
    });
    const wrongTeam = await env.call('POST', `/teams/${other.id}/invitations/accept`, {
      token: key,
      password: STRONG_PASSWORD,
    });
    expect(wrongTeam.json()).toMatchObject({ statusCode: 404, errorCode: 'invitationNotFound' });
    const noTeam = await env.call('POST', '/teams/nowhere/invitations/reject', { token: key });
    expect(noTeam.json()).toMatchObject({ statusCode: 404, errorCode: 'invitationNotFound' });
    const empty = await env.accept({ token: '' });
    expect(empty.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidAcceptToken' });

    // Withdrawing the invitation kills its link and the account it made.
    const removed = await env.call(
      'DELETE',
      `/teams/${env.team.id}/members/${userId}`,
      undefined,
      await env.asOwner(),
    );
    expect(removed.statusCode).toBe(204);
    expect((await env.accept({ token: key, password: STRONG_PASSWORD })).json()).toMatchObject({
      errorCode: 'invitationNotFound',
    });
    expect(
      await env.server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', userId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses duplicates: a current member, and a nickname taken in any case', async () => {
    const member = await createUser(env.server.ctx, {
      email: 'dora@example.com',
      nickname: 'Élodie',
    });
    await addMember(env.server.ctx, {
      teamId: env.team.id,
      user: member,
      role: 'viewer',
      nickname: 'Élodie',
    });
    const before = await env.server.ctx.db.selectFrom('team_members').selectAll().execute();

    const dup = await env.invite({
      email: 'DORA@example.com',
      nickname: 'Dora',
      role: 'viewer',
      locale: 'en',
    });
    expect(dup.json()).toMatchObject({
      statusCode: 409,
      errorCode: 'alreadyExists',
      data: { duplicate: 'member' },
    });
    const mine = await env.invite({
      email: 'olga@example.com',
      nickname: 'Olga Two',
      role: 'admin',
      locale: 'en',
    });
    expect(mine.json()).toMatchObject({
      statusCode: 409,
      errorCode: 'alreadyExists',
      data: { duplicate: 'self' },
    });
    for (const nickname of ['ÉLODIE', 'élodie', ' Élodie ']) {
      const taken = await env.invite({
        email: 'new.one@example.com',
        nickname,
        role: 'viewer',
        locale: 'en',
      });
      expect(taken.json(), nickname).toMatchObject({
        statusCode: 409,
        errorCode: 'nicknameAlreadyExists',
      });
    }
    const badRole = await env.invite({
      email: 'x@example.com',
      nickname: 'Xavier',
      role: 'owner',
      locale: 'en',
    });
    expect(badRole.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    expect(await env.server.ctx.db.selectFrom('team_members').selectAll().execute()).toEqual(
      before,
    );
    expect(
      await env.server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'new.one@example.com')
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('answers cannotSendInvitationEmail when the mail server refuses, and keeps the member', async () => {
    env.smtp.rejectRecipients((address) =>
      address === 'bounce@example.com' ? { code: 550, message: 'No such mailbox' } : undefined,
    );
    try {
      const res = await env.invite({
        email: 'bounce@example.com',
        nickname: 'Bruno',
        role: 'viewer',
        locale: 'en',
      });
      expect(res.statusCode, res.body).toBe(502);
      const body = res.json<{ errorCode: string; data: { member: unknown } }>();
      expect(body.errorCode).toBe('cannotSendInvitationEmail');
      const member = memberSchema.parse(body.data.member);
      expect(member).toMatchObject({ email: 'bounce@example.com', status: 'invited' });
      expect((await env.memberRow(member.userId))?.status).toBe('invited');
      const job = await env.server.ctx.db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where('queue', '=', 'mail.send')
        .where('payload', 'like', '%bounce@example.com%')
        .executeTakeFirstOrThrow();
      // Still to be retried: the address may come back, and the invitation can be resent.
      expect(job).toMatchObject({ status: 'pending', attempts: 1 });
      expect(job.last_error).toMatch(/No such mailbox|550/);
      expect(env.smtp.messages.some((m) => m.to.includes('bounce@example.com'))).toBe(false);
    } finally {
      env.smtp.rejectRecipients(null);
    }
  });
});
