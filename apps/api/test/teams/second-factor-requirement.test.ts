import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';

describe('team requirement of a second factor', () => {
  let server: TestServer;
  let now = 1_900_000_000_000 - (1_900_000_000_000 % 30_000) + 15_000;
  beforeAll(async () => {
    server = await startTestServer({}, { clock: () => now });
  });
  afterAll(() => server.close());

  async function call(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    user: UserRow,
    payload?: unknown,
  ) {
    const res = await server.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, user)}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  }

  async function enrolTotp(user: UserRow) {
    const start = await call('POST', '/users/@me/totp', user);
    const secret = Secret.fromBase32(start.body.secret as string);
    now += 30_000;
    const code = TOTP.generate({ secret, timestamp: now });
    expect((await call('POST', '/users/@me/totp/confirm', user, { code })).status).toBe(200);
  }

  const requireOn = (teamId: string, owner: UserRow, value = true) =>
    call('PATCH', `/teams/${teamId}`, owner, [
      { op: 'replace', path: '/requireSecondFactor', value },
    ]);

  it('is set by the owner only, who needs a factor first', async () => {
    const owner = await createUser(server.ctx, { email: 'req-owner1@example.com' });
    const admin = await createUser(server.ctx, { email: 'req-admin1@example.com' });
    const team = await createTeam(server.ctx, { owner, name: 'Req one' });
    await addMember(server.ctx, { teamId: team.id, user: admin, role: 'admin', nickname: 'Admin' });

    expect(await requireOn(team.id, owner)).toMatchObject({
      status: 403,
      body: { errorCode: 'secondFactorEnrolmentRequired' },
    });
    await enrolTotp(admin);
    expect((await requireOn(team.id, admin)).status).toBe(400);
    await enrolTotp(owner);
    const res = await requireOn(team.id, owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.requireSecondFactor).toBe(true);
  });

  it('refuses owners and admins without a factor, not uploaders or viewers', async () => {
    const owner = await createUser(server.ctx, { email: 'req-owner2@example.com' });
    const admin = await createUser(server.ctx, { email: 'req-admin2@example.com' });
    const uploader = await createUser(server.ctx, { email: 'req-uploader2@example.com' });
    const viewer = await createUser(server.ctx, { email: 'req-viewer2@example.com' });
    const team = await createTeam(server.ctx, { owner, name: 'Req two' });
    await addMember(server.ctx, { teamId: team.id, user: admin, role: 'admin', nickname: 'Admin' });
    await addMember(server.ctx, {
      teamId: team.id,
      user: uploader,
      role: 'uploader',
      nickname: 'Uploader',
    });
    await addMember(server.ctx, {
      teamId: team.id,
      user: viewer,
      role: 'viewer',
      nickname: 'Viewer',
    });
    // Before the requirement, everyone works without a factor.
    expect((await call('GET', `/teams/${team.id}/collections`, admin)).status).toBe(200);

    await enrolTotp(owner);
    expect((await requireOn(team.id, owner)).status).toBe(200);

    for (const path of [`/teams/${team.id}/collections`, `/teams/${team.id}/members`]) {
      expect(await call('GET', path, admin)).toMatchObject({
        status: 403,
        body: { errorCode: 'secondFactorEnrolmentRequired' },
      });
    }
    // The team itself stays readable, so the web app can ask for a factor.
    const own = await call('GET', `/teams/${team.id}`, admin);
    expect(own.status).toBe(200);
    expect(own.body.requireSecondFactor).toBe(true);
    for (const member of [uploader, viewer]) {
      expect((await call('GET', `/teams/${team.id}/collections`, member)).status).toBe(200);
    }
    expect((await call('GET', `/teams/${team.id}/collections`, owner)).status).toBe(200);

    await enrolTotp(admin);
    expect((await call('GET', `/teams/${team.id}/collections`, admin)).status).toBe(200);

    expect((await requireOn(team.id, owner, false)).status).toBe(200);
  });
});
