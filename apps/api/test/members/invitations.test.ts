import { memberSchema, tokenSetSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/secrets.js';
import { createUser } from '../helpers/factories.js';
import { DAY, startInvitationEnv, STRONG_PASSWORD, type InvitationEnv } from './invitation-env.js';
import { accessToken } from './world.js';

describe('invitations', () => {
  let env: InvitationEnv;
  beforeAll(async () => {
    env = await startInvitationEnv();
  });
  afterAll(() => env.close());

  it('invites a new address in its language, then the accept completes the account and signs in', async () => {
    const res = await env.invite({
      email: 'Nina@Example.com',
      nickname: 'Nina',
      role: 'uploader',
      locale: 'it',
    });
    expect(res.statusCode, res.body).toBe(201);
    const member = memberSchema.parse(res.json<{ member: unknown }>().member);
    expect(member).toMatchObject({
      teamId: env.team.id,
      nickname: 'Nina',
      role: 'uploader',
      status: 'invited',
      type: 'standard',
      email: 'nina@example.com',
      username: null,
      joinedAt: null,
      createdBy: env.owner.id,
      inviteExpiresAt: env.clock.now + 7 * DAY,
    });

    // The account exists now, unusable until the invitation is accepted.
    const account = await env.server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'nina@example.com')
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({
      id: member.userId,
      kind: 'standard',
      sign_up_method: 'invitation',
      password_hash: null,
      email_verified: 0,
      scope: 'team',
      locale: 'it',
    });

    const { mail, acceptLink, rejectLink, key } = await env.linksFor('nina@example.com');
    expect(mail.subject).toBe('Olga ti ha invitato a unirti a Coro San Marco su Raccolta');
    expect(mail.text).toContain('con il ruolo di Collaboratore');
    expect(acceptLink.origin + acceptLink.pathname).toBe(
      `${env.server.config.publicUrl}/teams/${env.team.id}/invitations/accept`,
    );
    expect(rejectLink.searchParams.get('key')).toBe(key);
    // Only the hash of the token is stored.
    const codes = await env.server.ctx.db
      .selectFrom('one_time_codes')
      .select(['code_hash', 'expires_at', 'data'])
      .where('user_id', '=', member.userId)
      .execute();
    expect(codes).toEqual([
      {
        code_hash: hashToken(key),
        expires_at: env.clock.now + 7 * DAY,
        data: JSON.stringify({ teamId: env.team.id }),
      },
    ]);
    const job = await env.server.ctx.db
      .selectFrom('jobs')
      .select(['status', 'payload'])
      .where('queue', '=', 'mail.send')
      .where('payload', 'like', '%nina@example.com%')
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('succeeded');

    const first = await env.accept({ token: key });
    expect(first.statusCode).toBe(409);
    expect(first.json()).toMatchObject({
      errorCode: 'newInvitedAccountRequired',
      data: { email: 'nina@example.com', teamName: 'Coro San Marco', inviterName: 'Olga' },
    });
    const weak = await env.accept({ token: key, password: 'weakpassword' });
    expect(weak.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidPassword' });
    expect((await env.memberRow(member.userId))?.status).toBe('invited');

    env.clock.now += 60_000;
    const done = await env.accept({ token: key, password: STRONG_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json<{ membership: unknown; auth: unknown }>();
    expect(body.membership).toEqual({
      role: 'uploader',
      teamId: env.team.id,
      teamName: 'Coro San Marco',
    });
    const auth = tokenSetSchema.parse(body.auth);
    expect(auth.RefreshToken).toBeTruthy();

    expect(await env.memberRow(member.userId)).toMatchObject({
      status: 'active',
      joined_at: env.clock.now,
      invite_expires_at: null,
    });
    const completed = await env.server.ctx.db
      .selectFrom('users')
      .select(['password_hash', 'email_verified'])
      .where('id', '=', member.userId)
      .executeTakeFirstOrThrow();
    expect(completed.email_verified).toBe(1);
    expect(completed.password_hash).toMatch(/^\$argon2id\$/);

    // The session works in the team, and the password signs in.
    const list = await env.call('GET', `/teams/coro/members`, undefined, auth.AccessToken);
    expect(list.statusCode).toBe(200);
    const signin = await env.call('POST', '/auth/signin', {
      email: 'nina@example.com',
      password: STRONG_PASSWORD,
    });
    expect(signin.statusCode).toBe(200);

    const again = await env.accept({ token: key, password: STRONG_PASSWORD });
    expect(again.json()).toMatchObject({ statusCode: 409, errorCode: 'invitationAlreadyHandled' });
    const late = await env.reject({ token: key });
    expect(late.json()).toMatchObject({ statusCode: 409, errorCode: 'invitationAlreadyHandled' });
  });

  it('accepts for a signed-in invitee; someone else signed in is emailMismatch, nobody notLoggedIn', async () => {
    const carla = await createUser(env.server.ctx, {
      email: 'carla@example.com',
      nickname: 'Carla',
    });
    const stranger = await createUser(env.server.ctx, { email: 'sandro@example.com' });
    const res = await env.invite({
      email: 'carla@example.com',
      nickname: 'Carla B',
      role: 'viewer',
      locale: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { mail, key } = await env.linksFor('carla@example.com');
    expect(mail.subject).toBe('Olga invited you to join Coro San Marco on Raccolta');
    // An existing account keeps what it was.
    expect(
      await env.server.ctx.db
        .selectFrom('users')
        .select('sign_up_method')
        .where('id', '=', carla.id)
        .executeTakeFirst(),
    ).toEqual({ sign_up_method: 'email_password' });

    const anonymous = await env.accept({ token: key });
    expect(anonymous.json()).toMatchObject({
      statusCode: 401,
      errorCode: 'notLoggedIn',
      data: { email: 'carla@example.com' },
    });
    // A password does not let anyone take over an account that has one.
    const takeover = await env.accept({ token: key, password: STRONG_PASSWORD });
    expect(takeover.json()).toMatchObject({ statusCode: 401, errorCode: 'notLoggedIn' });

    const mismatch = await env.accept({ token: key }, await accessToken(env.server.ctx, stranger));
    // The page can offer to continue as the invited address, naming the team and the inviter.
    expect(mismatch.json()).toMatchObject({
      statusCode: 403,
      errorCode: 'emailMismatch',
      data: { email: 'carla@example.com', teamName: 'Coro San Marco', inviterName: 'Olga' },
    });
    const badToken = await env.accept({ token: key }, 'not-a-jwt');
    expect(badToken.json()).toMatchObject({ statusCode: 401, errorCode: 'invalidAuthorization' });
    expect((await env.memberRow(carla.id))?.status).toBe('invited');

    const ok = await env.accept({ token: key }, await accessToken(env.server.ctx, carla));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      membership: { role: 'viewer', teamId: env.team.id, teamName: 'Coro San Marco' },
      auth: null,
    });
    expect(await env.memberRow(carla.id)).toMatchObject({ status: 'active', nickname: 'Carla B' });
  });

  it('rejects, refuses a second answer, and lets the address be invited again', async () => {
    const res = await env.invite({
      email: 'rino@example.com',
      nickname: 'Rino',
      role: 'viewer',
      locale: 'en',
    });
    const userId = memberSchema.parse(res.json<{ member: unknown }>().member).userId;
    const { key } = await env.linksFor('rino@example.com');

    const rejected = await env.reject({ token: key });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toEqual({ rejected: true });
    expect(await env.memberRow(userId)).toMatchObject({
      status: 'rejected',
      invite_expires_at: null,
    });
    const detail = await env.call(
      'GET',
      `/teams/${env.team.id}/members/${userId}`,
      undefined,
      await env.asOwner(),
    );
    expect(detail.json()).toMatchObject({ status: 'rejected', inviteExpiresAt: null });

    expect((await env.reject({ token: key })).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'invitationAlreadyHandled',
    });
    expect((await env.accept({ token: key, password: STRONG_PASSWORD })).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'invitationAlreadyHandled',
    });

    const before = env.smtp.messages.length;
    const again = await env.invite({
      email: 'rino@example.com',
      nickname: 'Rino R',
      role: 'admin',
      locale: 'en',
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({
      member: { status: 'invited', role: 'admin', nickname: 'Rino R' },
    });
    const second = await env.linksFor('rino@example.com', before);
    expect(second.key).not.toBe(key);
    expect((await env.accept({ token: second.key, password: STRONG_PASSWORD })).statusCode).toBe(
      200,
    );
  });

  it('answers expiredToken past the expiry; a resend replaces the link', async () => {
    const res = await env.invite({
      email: 'eva@example.com',
      nickname: 'Eva',
      role: 'uploader',
      locale: 'en',
    });
    const userId = memberSchema.parse(res.json<{ member: unknown }>().member).userId;
    const { key: oldKey } = await env.linksFor('eva@example.com');
    const sent = env.smtp.messages.length;

    env.clock.now += 7 * DAY;
    expect((await env.accept({ token: oldKey, password: STRONG_PASSWORD })).json()).toMatchObject({
      statusCode: 410,
      errorCode: 'expiredToken',
    });
    expect((await env.reject({ token: oldKey })).json()).toMatchObject({
      errorCode: 'expiredToken',
    });
    const listed = await env.call(
      'GET',
      `/teams/${env.team.id}/members/${userId}`,
      undefined,
      await env.asOwner(),
    );
    expect(listed.json()).toMatchObject({ status: 'invited', inviteExpiresAt: env.clock.now });

    const resend = await env.call(
      'POST',
      `/teams/${env.team.id}/invitations/resend`,
      { userId },
      await env.asOwner(),
    );
    expect(resend.statusCode, resend.body).toBe(200);
    expect(resend.json()).toMatchObject({
      userId,
      status: 'invited',
      inviteExpiresAt: env.clock.now + 7 * DAY,
    });
    const { key: newKey } = await env.linksFor('eva@example.com', sent);
    expect(newKey).not.toBe(oldKey);

    expect((await env.accept({ token: oldKey, password: STRONG_PASSWORD })).json()).toMatchObject({
      statusCode: 404,
      errorCode: 'invitationNotFound',
    });
    const ok = await env.accept({ token: newKey, password: STRONG_PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
