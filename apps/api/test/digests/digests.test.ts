import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionRow } from '../../src/db/rows.js';
import { DIGEST_SETTLE_MS, sendDueDigests } from '../../src/digests/digests.service.js';
import { renderMail, type MailVars } from '../../src/mail/templates.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { createCollection, createStoredFile } from '../files/files-world.js';
import { accessToken, buildWorld, type World } from '../members/world.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface DigestMail {
  id: string;
  to: string;
  locale: string;
  vars: MailVars['digest'];
}

describe('digests of what arrived', () => {
  let server: TestServer;
  const clock = { now: Date.UTC(2026, 10, 2, 8, 0) };
  let address = 0;

  beforeAll(async () => {
    server = await startTestServer(
      { RATE_LIMIT_MAX: '100000' },
      { worker: false, clock: () => clock.now },
    );
  });
  afterAll(() => server.close());

  const run = () => sendDueDigests(server.ctx);

  /** Every digest mail job queued so far, oldest first. */
  async function digestMails(): Promise<DigestMail[]> {
    const rows = await server.ctx.db
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('queue', '=', 'mail.send')
      .orderBy('id')
      .execute();
    return rows
      .map((row) => ({ id: row.id, ...(JSON.parse(row.payload) as Omit<DigestMail, 'id'>) }))
      .filter((mail) => (mail as { template?: string }).template === 'digest');
  }

  async function newMails(before: DigestMail[]): Promise<DigestMail[]> {
    const seen = new Set(before.map((m) => m.id));
    return (await digestMails()).filter((m) => !seen.has(m.id));
  }

  const to = (mails: DigestMail[], user: UserRow) => mails.filter((m) => m.to === user.email);

  async function call(
    user: UserRow | null,
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: object | string,
    headers: Record<string, string> = {},
  ) {
    address++;
    return server.app.inject({
      method,
      url: `/api${url}`,
      remoteAddress: `10.9.${address >> 8}.${address & 255}`,
      headers: {
        ...headers,
        ...(user ? { authorization: `Bearer ${await accessToken(server.ctx, user)}` } : {}),
      },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  const choose = async (world: World, user: UserRow, frequency: string) => {
    const res = await call(user, 'PUT', `/teams/${world.team.id}/members/@me/digest`, {
      frequency,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** A file that arrived `ago` ms before now, in a collection. */
  const file = (collection: CollectionRow, by: UserRow, ago = 10 * MINUTE, renditions = false) =>
    createStoredFile(server.ctx, {
      collection,
      uploadedBy: by.id,
      at: clock.now - ago,
      objects: renditions,
      renditions,
      name: `photo-${++address}.jpg`,
    });

  /** Moves the clock and gives every earlier world's members their window, so runs stay local. */
  async function world() {
    clock.now += 2 * DAY;
    const w = await buildWorld(server.ctx);
    const collaborative = await createCollection(server.ctx, {
      teamId: w.team.id,
      createdBy: w.users.admin.id,
      mode: 'collaborative',
      name: 'Gita',
    });
    const ownersOwn = await createCollection(server.ctx, {
      teamId: w.team.id,
      createdBy: w.users.owner.id,
      mode: 'owned',
      name: 'Riservata',
    });
    // Joined a while ago, so files of the last hours are theirs to be told about.
    await server.ctx.db
      .updateTable('team_members')
      .set({ joined_at: clock.now - DAY })
      .where('team_id', '=', w.team.id)
      .execute();
    clock.now += MINUTE;
    return { ...w, collaborative, ownersOwn };
  }

  it('sends daily digests to owners and admins by default, to no one else', async () => {
    const w = await world();
    await file(w.collaborative, w.users.uploader);
    await file(w.collaborative, w.target);
    const before = await digestMails();
    await run();
    const mails = (await newMails(before)).filter((m) =>
      Object.values(w.users).some((u) => u.email === m.to),
    );
    expect(mails.map((m) => m.to).sort()).toEqual(
      [w.users.admin.email, w.users.owner.email].sort(),
    );
    const owner = to(mails, w.users.owner)[0];
    expect(owner?.vars).toMatchObject({
      teamName: expect.stringContaining('Team') as string,
      frequency: 'daily',
      total: 2,
      collections: [{ name: 'Gita', count: 2, others: 0 }],
    });
    expect(owner?.vars.collections[0]?.uploaders).toHaveLength(2);
    expect(owner?.vars.collections[0]?.link).toBe(
      `${server.config.publicUrl}/teams/${w.team.id}/collections/${w.collaborative.id}`,
    );
  });

  it('GET shows the role default until a choice; internal contributors cannot choose', async () => {
    const w = await world();
    const get = async (user: UserRow) =>
      (await call(user, 'GET', `/teams/${w.team.id}/members/@me/digest`)).json<object>();
    expect(await get(w.users.owner)).toEqual({
      frequency: 'daily',
      isDefault: true,
      available: true,
    });
    expect(await get(w.users.admin)).toEqual({
      frequency: 'daily',
      isDefault: true,
      available: true,
    });
    expect(await get(w.users.uploader)).toEqual({
      frequency: 'never',
      isDefault: true,
      available: true,
    });
    expect(await get(w.users.viewer)).toEqual({
      frequency: 'never',
      isDefault: true,
      available: true,
    });
    expect(await get(w.internal)).toEqual({
      frequency: 'never',
      isDefault: true,
      available: false,
    });
    await choose(w, w.users.viewer, 'instant');
    expect(await get(w.users.viewer)).toEqual({
      frequency: 'instant',
      isDefault: false,
      available: true,
    });
    const refused = await call(w.internal, 'PUT', `/teams/${w.team.id}/members/@me/digest`, {
      frequency: 'daily',
    });
    expect(refused.statusCode).toBe(403);
    const bad = await call(w.users.owner, 'PUT', `/teams/${w.team.id}/members/@me/digest`, {
      frequency: 'weekly',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorCode: 'invalidInput' });
  });

  it('tells a member only of collections they can see', async () => {
    const w = await world();
    await choose(w, w.users.uploader, 'instant');
    await choose(w, w.users.viewer, 'instant');
    await file(w.ownersOwn, w.users.owner);
    await file(w.ownersOwn, w.users.owner);
    let before = await digestMails();
    await run();
    let mails = await newMails(before);
    // The owner's own collection is hidden from uploaders (§6): nothing to tell them.
    expect(to(mails, w.users.uploader)).toEqual([]);
    expect(to(mails, w.users.viewer)[0]?.vars).toMatchObject({
      total: 2,
      collections: [{ name: 'Riservata', count: 2 }],
    });

    clock.now += 15 * MINUTE;
    await file(w.collaborative, w.users.admin);
    await file(w.ownersOwn, w.users.owner);
    before = await digestMails();
    await run();
    mails = await newMails(before);
    const uploader = to(mails, w.users.uploader);
    expect(uploader).toHaveLength(1);
    expect(uploader[0]?.vars).toMatchObject({
      total: 1,
      collections: [{ name: 'Gita', count: 1 }],
    });
    expect(JSON.stringify(uploader[0])).not.toContain('Riservata');
    expect(JSON.stringify(uploader[0])).not.toContain(w.ownersOwn.id);
  });

  it('batches instant digests to one per 15 minutes and daily ones to one per 24 hours', async () => {
    const w = await world();
    await choose(w, w.users.viewer, 'instant');
    await file(w.collaborative, w.users.uploader);
    let before = await digestMails();
    await run();
    let mails = await newMails(before);
    expect(to(mails, w.users.viewer)).toHaveLength(1);
    expect(to(mails, w.users.owner)).toHaveLength(1);

    const f2 = await file(w.collaborative, w.users.uploader, 2 * MINUTE);
    clock.now += 5 * MINUTE;
    before = await digestMails();
    await run();
    expect(await newMails(before)).toEqual([]);

    clock.now += 10 * MINUTE;
    before = await digestMails();
    await run();
    mails = await newMails(before);
    expect(to(mails, w.users.owner)).toEqual([]);
    const viewer = to(mails, w.users.viewer);
    expect(viewer).toHaveLength(1);
    // Only what is new since the last one.
    expect(viewer[0]?.vars.total).toBe(1);
    expect(viewer[0]?.vars.frequency).toBe('instant');

    // Nothing new: no e-mail, even with the window open.
    clock.now += 20 * MINUTE;
    before = await digestMails();
    await run();
    expect(to(await newMails(before), w.users.viewer)).toEqual([]);

    clock.now += DAY;
    before = await digestMails();
    await run();
    mails = await newMails(before);
    const owner = to(mails, w.users.owner);
    expect(owner).toHaveLength(1);
    expect(owner[0]?.vars.total).toBe(1);
    expect(f2.created_at).toBeLessThan(clock.now);
  });

  it('leaves files of the last minute for the next digest, never skipping them', async () => {
    const w = await world();
    await choose(w, w.users.viewer, 'instant');
    await file(w.collaborative, w.users.uploader);
    await file(w.collaborative, w.users.uploader, DIGEST_SETTLE_MS / 2);
    let before = await digestMails();
    await run();
    expect(to(await newMails(before), w.users.viewer)[0]?.vars.total).toBe(1);
    clock.now += 15 * MINUTE;
    before = await digestMails();
    await run();
    expect(to(await newMails(before), w.users.viewer)[0]?.vars.total).toBe(1);
  });

  it('reports each file once when a run dies between queueing the mail and moving the cursor', async () => {
    const w = await world();
    await choose(w, w.users.viewer, 'instant');
    await file(w.collaborative, w.users.uploader);
    await file(w.collaborative, w.users.uploader);
    const db = server.ctx.db;
    const postgres = server.config.database.kind === 'postgres';
    // The cursor's UPDATE, the statement after the mail job's INSERT, fails like a crash there.
    if (postgres) {
      await sql`create or replace function digest_crash() returns trigger as $$ begin raise exception 'crash'; end $$ language plpgsql`.execute(
        db,
      );
      await sql`create trigger digest_crash before update on member_digests for each row execute function digest_crash()`.execute(
        db,
      );
    } else {
      await sql`create trigger digest_crash before update on member_digests begin select raise(abort, 'crash'); end`.execute(
        db,
      );
    }
    const before = await digestMails();
    const cursors = () =>
      db
        .selectFrom('member_digests')
        .selectAll()
        .where('team_id', '=', w.team.id)
        .orderBy('user_id')
        .execute();
    await expect(run()).rejects.toThrow(/crash/);
    expect(await newMails(before)).toEqual([]);
    expect((await cursors()).filter((row) => row.cursor_at !== null)).toEqual([]);

    await sql`drop trigger digest_crash${postgres ? sql` on member_digests` : sql``}`.execute(db);
    // The job's retry.
    await run();
    const mails = await newMails(before);
    expect(to(mails, w.users.viewer)).toHaveLength(1);
    expect(to(mails, w.users.owner)).toHaveLength(1);
    expect(to(mails, w.users.viewer)[0]?.vars.total).toBe(2);

    clock.now += DAY;
    const later = await digestMails();
    await run();
    expect(
      (await newMails(later)).filter((m) =>
        [w.users.viewer.email, w.users.owner.email].includes(m.to),
      ),
    ).toEqual([]);
  });

  it('links up to six thumbnails as signed rendition links that work for the member', async () => {
    const w = await world();
    for (let i = 0; i < 8; i++)
      await file(w.collaborative, w.users.uploader, 20 * MINUTE - i, true);
    const before = await digestMails();
    await run();
    const mail = to(await newMails(before), w.users.admin)[0];
    if (!mail) throw new Error('no digest for the admin');
    expect(mail.vars.total).toBe(8);
    expect(mail.vars.thumbnails).toHaveLength(6);
    const rendered = renderMail('digest', 'en', mail.vars);
    expect(rendered.listUnsubscribe).toBe(mail.vars.unsubscribe.oneClick);
    for (const thumbnail of mail.vars.thumbnails) {
      expect(rendered.html).toContain(`<img src="${thumbnail.src}"`);
      const res = await server.app.inject({ method: 'GET', url: new URL(thumbnail.src).pathname });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
    }
  });

  it('unsubscribes with one click (RFC 8058), for that team only', async () => {
    const w = await world();
    await file(w.collaborative, w.users.uploader);
    const before = await digestMails();
    await run();
    const mail = to(await newMails(before), w.users.owner)[0];
    if (!mail) throw new Error('no digest for the owner');
    const oneClick = new URL(mail.vars.unsubscribe.oneClick);
    const url = `${oneClick.pathname.replace(/^\/api/, '')}${oneClick.search}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    const wrongBody = await call(null, 'POST', url, 'List-Unsubscribe=Yes', form);
    expect(wrongBody.statusCode).toBe(400);
    const forged = new URL(oneClick);
    forged.searchParams.set('user', w.users.admin.id);
    const wrongToken = await call(
      null,
      'POST',
      `/digests/unsubscribe${forged.search}`,
      'List-Unsubscribe=One-Click',
      form,
    );
    expect(wrongToken.statusCode).toBe(400);
    expect(wrongToken.json()).toMatchObject({ errorCode: 'invalidUnsubscribe' });

    const done = await call(null, 'POST', url, 'List-Unsubscribe=One-Click', form);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ status: 'unsubscribed' });
    const pref = await call(w.users.owner, 'GET', `/teams/${w.team.id}/members/@me/digest`);
    expect(pref.json()).toEqual({ frequency: 'never', isDefault: false, available: true });
    // Their other team (as foreigner's, here: the admin's) is untouched.
    const admin = await call(w.users.admin, 'GET', `/teams/${w.team.id}/members/@me/digest`);
    expect(admin.json()).toMatchObject({ frequency: 'daily' });
    // The page's JSON POST, again: the same answer.
    const again = await call(null, 'POST', '/digests/unsubscribe', {
      team: oneClick.searchParams.get('team'),
      user: oneClick.searchParams.get('user'),
      token: oneClick.searchParams.get('token'),
    });
    expect(again.statusCode).toBe(200);
    const opened = await call(null, 'GET', url);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(
      `${server.config.publicUrl}/digests/unsubscribe${oneClick.search}`,
    );

    clock.now += DAY;
    await file(w.collaborative, w.users.uploader);
    const later = await digestMails();
    await run();
    const mails = await newMails(later);
    expect(to(mails, w.users.owner)).toEqual([]);
    expect(to(mails, w.users.admin)).toHaveLength(1);
  });
});
