import { collectionSchema, deadlineInstant, fileListResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  queuePendingReminders,
  recordDueReminders,
  sendDueReminders,
} from '../../src/collections/reminders.service.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { makePng } from '../files/images.js';
import { addMember, createInternalMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { tusClient } from '../uploads/tus-client.js';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

describe('collection deadlines, late uploads and reminders', () => {
  let server: TestServer;
  const clock = { now: Date.UTC(2026, 10, 2, 9, 0) };
  let owner: UserRow;
  let admin: UserRow;
  let uploader: UserRow;
  let busy: UserRow;
  let viewer: UserRow;
  let internal: UserRow;
  let team: { id: string };

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { clock: () => clock.now });
    const user = (name: string, locale = 'en') =>
      createUser(server.ctx, { email: `${name}@example.com`, nickname: name, locale });
    owner = await user('olga');
    admin = await user('ada', 'it');
    uploader = await user('ugo', 'it');
    busy = await user('bruno');
    viewer = await user('vera');
    team = await createTeam(server.ctx, { owner, name: 'Choir', alias: 'choir' });
    await addMember(server.ctx, { teamId: team.id, user: admin, role: 'admin' });
    await addMember(server.ctx, { teamId: team.id, user: uploader, role: 'uploader' });
    await addMember(server.ctx, { teamId: team.id, user: busy, role: 'uploader' });
    await addMember(server.ctx, { teamId: team.id, user: viewer, role: 'viewer' });
    internal = await createInternalMember(server.ctx, {
      teamId: team.id,
      username: 'kiosk',
      password: 'Sup3r-secret-kiosk',
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    clock.now += DAY * 30;
  });

  async function call(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    as: UserRow,
    payload?: unknown,
  ) {
    return server.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  /** A local time `ms` from now in Rome, as the form sends it. */
  function romeIn(ms: number): { local: string; timeZone: string } {
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Rome',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .format(clock.now + ms)
      .replace(' ', 'T');
    return { local, timeZone: 'Europe/Rome' };
  }

  async function createCollection(extra: Record<string, unknown> = {}) {
    const res = await call('POST', `/teams/${team.id}/collections`, owner, {
      name: 'Concert',
      mode: 'collaborative',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return collectionSchema.parse(res.json());
  }

  const reminderMails = async (collectionId: string) => {
    const jobs = await server.ctx.db
      .selectFrom('jobs')
      .select('payload')
      .where('queue', '=', 'mail.send')
      .execute();
    return jobs
      .map(
        (job) =>
          JSON.parse(job.payload) as {
            to: string;
            locale: string;
            template: string;
            vars: { link: string };
          },
      )
      .filter((m) => m.template === 'collectionReminder' && m.vars.link.endsWith(collectionId))
      .map((m) => `${m.to} ${m.locale}`)
      .sort();
  };
  const deps = () => ({ db: server.ctx.db, clock: () => clock.now, config: server.ctx.config });

  it('stores a deadline as its instant and zone, shows it, changes and clears it', async () => {
    const due = romeIn(3 * DAY);
    const created = await createCollection({ deadline: due, allowLateUploads: true });
    const at = deadlineInstant(due.local, due.timeZone) ?? 0;
    expect(created.deadline).toEqual({ at: new Date(at).toISOString(), ...due });
    expect(created.allowLateUploads).toBe(true);
    const row = await server.ctx.db
      .selectFrom('collections')
      .select(['deadline_at', 'deadline_zone', 'allow_late_uploads'])
      .where('id', '=', created.collectionId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ deadline_at: at, deadline_zone: 'Europe/Rome', allow_late_uploads: 1 });

    const url = `/teams/${team.id}/collections/${created.collectionId}`;
    const moved = await call('PATCH', url, owner, [
      { op: 'test', path: '/deadline', value: due },
      { op: 'replace', path: '/deadline', value: { local: '2030-01-15T12:00', timeZone: 'UTC' } },
      { op: 'replace', path: '/allowLateUploads', value: false },
    ]);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(collectionSchema.parse(moved.json())).toMatchObject({
      deadline: { at: '2030-01-15T12:00:00.000Z', local: '2030-01-15T12:00', timeZone: 'UTC' },
      allowLateUploads: false,
    });
    const cleared = await call('PATCH', url, owner, [{ op: 'remove', path: '/deadline' }]);
    expect(collectionSchema.parse(cleared.json()).deadline).toBeNull();

    for (const deadline of [
      { local: '2030-02-30T12:00', timeZone: 'UTC' },
      { local: '2030-01-15T12:00', timeZone: 'Moon/Base' },
      '2030-01-15',
    ]) {
      const bad = await call('POST', `/teams/${team.id}/collections`, owner, {
        name: 'Bad',
        mode: 'owned',
        deadline,
      });
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
  });

  it('refuses a new upload after the deadline, with collectionClosed', async () => {
    const c = await createCollection({ deadline: romeIn(HOUR) });
    clock.now += HOUR + 60_000;
    const tus = await tusClient(server, uploader);
    const res = await tus.create(team.id, c.collectionId, { length: 10, filename: 'a.png' });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ errorCode: 'collectionClosed' });
  });

  it('refuses every PATCH once the deadline passes mid-upload, and no file appears', async () => {
    const c = await createCollection({ deadline: romeIn(10 * 60_000) });
    const tus = await tusClient(server, uploader);
    const data = await makePng(64, 48);
    const created = await tus.create(team.id, c.collectionId, {
      length: data.length,
      filename: 'a.png',
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = String(created.headers.location);
    const half = Math.floor(data.length / 2);
    expect((await tus.patch(url, 0, data.subarray(0, half))).statusCode).toBe(204);
    // Within the access token's life: the same client goes on.
    clock.now += 11 * 60_000;
    const last = await tus.patch(url, half, data.subarray(half));
    expect(last.statusCode, last.body).toBe(403);
    expect(last.json()).toMatchObject({ errorCode: 'collectionClosed' });
    const files = await server.ctx.db
      .selectFrom('files')
      .select('id')
      .where('collection_id', '=', c.collectionId)
      .execute();
    expect(files).toEqual([]);
  });

  it('accepts files after the deadline when late uploads are allowed, and marks them late', async () => {
    const c = await createCollection({ deadline: romeIn(10 * 60_000), allowLateUploads: true });
    const tus = await tusClient(server, uploader);
    const onTime = await tus.upload(team.id, c.collectionId, await makePng(8, 8));
    expect(onTime.last.statusCode, onTime.last.body).toBe(204);
    // Within the access token's life: the same client goes on.
    clock.now += 11 * 60_000;
    const late = await tus.upload(team.id, c.collectionId, await makePng(9, 9));
    expect(late.last.statusCode, late.last.body).toBe(204);
    const list = await call('GET', `/teams/${team.id}/collections/${c.collectionId}/files`, owner);
    expect(list.statusCode, list.body).toBe(200);
    const files = fileListResponseSchema.parse(list.json()).files;
    const lateOf = Object.fromEntries(files.map((f) => [f.fileId, f.late]));
    expect(lateOf).toEqual({
      [onTime.url.split('/').pop() ?? '']: false,
      [late.url.split('/').pop() ?? '']: true,
    });
  });

  it('e-mails each member who can upload and has sent nothing, once per offset, in their language', async () => {
    const c = await createCollection({ deadline: romeIn(3 * DAY + 2 * HOUR) });
    const tus = await tusClient(server, busy);
    expect((await tus.upload(team.id, c.collectionId, await makePng(8, 8))).last.statusCode).toBe(
      204,
    );
    // Not yet three days before.
    await sendDueReminders(deps());
    expect(await reminderMails(c.collectionId)).toEqual([]);

    clock.now += 3 * HOUR;
    await sendDueReminders(deps());
    await sendDueReminders(deps());
    // Owner and admin may upload too; the viewer may not, the internal contributor has no
    // address, and Bruno has uploaded already.
    const first = ['ada@example.com it', 'olga@example.com en', 'ugo@example.com it'];
    expect(await reminderMails(c.collectionId)).toEqual(first);

    clock.now += 2 * DAY;
    await sendDueReminders(deps());
    await sendDueReminders(deps());
    expect(await reminderMails(c.collectionId)).toEqual([...first, ...first].sort());

    // After the deadline: nothing more.
    clock.now += 2 * DAY;
    await sendDueReminders(deps());
    expect(await reminderMails(c.collectionId)).toHaveLength(6);
    const rows = await server.ctx.db
      .selectFrom('collection_reminders')
      .select(['user_id', 'days_before', 'status'])
      .where('collection_id', '=', c.collectionId)
      .execute();
    expect(rows.map((r) => `${r.days_before} ${r.status}`).sort()).toEqual([
      '1 queued',
      '1 queued',
      '1 queued',
      '3 queued',
      '3 queued',
      '3 queued',
    ]);
    expect(rows.some((r) => r.user_id === internal.id || r.user_id === viewer.id)).toBe(false);
  });

  it('sends a reminder once when the run dies between recording and queueing it', async () => {
    const c = await createCollection({ deadline: romeIn(20 * HOUR) });
    // The run records the reminders, then dies before queueing their mails.
    await recordDueReminders(deps());
    expect(await reminderMails(c.collectionId)).toEqual([]);
    const pending = await server.ctx.db
      .selectFrom('collection_reminders')
      .select(['days_before', 'status'])
      .where('collection_id', '=', c.collectionId)
      .execute();
    // Both offsets are due at once: the nearer one is sent, the other superseded.
    expect(pending.map((r) => `${r.days_before} ${r.status}`).sort()).toEqual([
      '1 pending',
      '1 pending',
      '1 pending',
      '1 pending',
      '3 skipped',
      '3 skipped',
      '3 skipped',
      '3 skipped',
    ]);
    // The next run finishes them; another queues nothing more.
    await sendDueReminders(deps());
    await sendDueReminders(deps());
    await queuePendingReminders(deps());
    expect(await reminderMails(c.collectionId)).toEqual([
      'ada@example.com it',
      'bruno@example.com en',
      'olga@example.com en',
      'ugo@example.com it',
    ]);
  });

  it('skips a pending reminder whose member uploaded in the meantime', async () => {
    const c = await createCollection({ deadline: romeIn(20 * HOUR) });
    await recordDueReminders(deps());
    const tus = await tusClient(server, uploader);
    expect((await tus.upload(team.id, c.collectionId, await makePng(8, 8))).last.statusCode).toBe(
      204,
    );
    await sendDueReminders(deps());
    expect(await reminderMails(c.collectionId)).not.toContain('ugo@example.com it');
    expect(await reminderMails(c.collectionId)).toHaveLength(3);
  });

  it('sends a reminder now for owners and admins, once an hour per collection', async () => {
    const c = await createCollection({ deadline: romeIn(5 * DAY) });
    const other = await createCollection({ deadline: romeIn(5 * DAY) });
    const url = `/teams/${team.id}/collections/${c.collectionId}/reminders`;
    for (const who of [uploader, viewer, internal]) {
      const res = await call('POST', url, who);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ errorCode: 'forbidden' });
    }
    const outsider = await createUser(server.ctx, { email: 'x@example.com' });
    expect((await call('POST', url, outsider)).statusCode).toBe(404);

    const sent = await call('POST', url, admin);
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toEqual({ sent: 4 });
    expect(await reminderMails(c.collectionId)).toHaveLength(4);
    const again = await call('POST', url, owner);
    expect(again.statusCode, again.body).toBe(429);
    expect(again.json()).toMatchObject({ errorCode: 'tooManyRequests' });
    // Per collection: another one is not held back.
    expect(
      (await call('POST', `/teams/${team.id}/collections/${other.collectionId}/reminders`, owner))
        .statusCode,
    ).toBe(202);
    clock.now += HOUR + 1;
    expect((await call('POST', url, owner)).statusCode).toBe(202);
    expect(await reminderMails(c.collectionId)).toHaveLength(8);
  });

  it('answers sent: 0 when nobody needs a reminder, without using up the hour', async () => {
    const c = await createCollection({ deadline: romeIn(5 * DAY) });
    const url = `/teams/${team.id}/collections/${c.collectionId}/reminders`;
    // Everyone who could be reminded has sent something already.
    for (const who of [owner, admin, uploader, busy]) {
      const tus = await tusClient(server, who);
      expect((await tus.upload(team.id, c.collectionId, await makePng(8, 8))).last.statusCode).toBe(
        204,
      );
    }
    for (let i = 0; i < 2; i++) {
      const res = await call('POST', url, owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ sent: 0 });
    }
    expect(await reminderMails(c.collectionId)).toEqual([]);
    // Someone joins who has sent nothing: the hour was not used, the reminder goes at once.
    const newcomer = await createUser(server.ctx, { email: 'nina@example.com', nickname: 'nina' });
    await addMember(server.ctx, { teamId: team.id, user: newcomer, role: 'uploader' });
    const sent = await call('POST', url, owner);
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toEqual({ sent: 1 });
    expect(await reminderMails(c.collectionId)).toEqual(['nina@example.com en']);
    expect((await call('POST', url, owner)).statusCode).toBe(429);
  });

  it('has nothing to remind of without a deadline or after it closed', async () => {
    const none = await createCollection();
    const res = await call(
      'POST',
      `/teams/${team.id}/collections/${none.collectionId}/reminders`,
      owner,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: 'invalidRequest' });
    const closed = await createCollection({ deadline: romeIn(HOUR) });
    clock.now += 2 * HOUR;
    const late = await call(
      'POST',
      `/teams/${team.id}/collections/${closed.collectionId}/reminders`,
      owner,
    );
    expect(late.statusCode, late.body).toBe(403);
    expect(late.json()).toMatchObject({ errorCode: 'collectionClosed' });
  });
});
