import type {
  AuthResultResponse,
  CollectionListResponse,
  FileListResponse,
} from '@raccolta/contracts';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.js';
import { nicknameKey } from '../../src/members/nickname.js';
import { createServer, type Server } from '../../src/server.js';
import { teamNameKey } from '../../src/teams/team-name.js';
import { buildFixture, FIXTURE_POINT, openUpgradeEnv, type UpgradeEnv } from './fixture.js';
import { executed, MIGRATION_NAMES } from './migration-steps.js';
import { FIXTURE_PASSWORD, type Rows0002 } from './seed-0002-accounts-and-teams.js';
import type { Role, Rows0008 } from './seed-0008-subscriptions.js';
import { counts, lostSince, snapshot, type Snapshot } from './snapshot.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let address = 0;
/** A client address per request: the sign-in limit (20 a minute per address) never decides. */
const nextAddress = () => `10.77.${(++address >> 8) & 255}.${address & 255}`;

describe(`a database an earlier version left at ${FIXTURE_POINT}, migrated to head`, () => {
  let env: UpgradeEnv | undefined;
  let old: Rows0002;
  let world: Rows0008;
  let before: Snapshot;
  let after: Snapshot;
  let running: Server | undefined;
  const app = () => {
    if (!running) throw new Error('the server did not start');
    return running;
  };
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    // UPLOAD_LOCKS=database: the tus requests below take their locks in 0010's table.
    const opened = await openUpgradeEnv({ UPLOAD_LOCKS: 'database' });
    env = opened;
    const rows = await buildFixture(opened, FIXTURE_POINT);
    if (!rows.at0002 || !rows.at0008) throw new Error('fixture rows missing');
    old = rows.at0002;
    world = rows.at0008;
    before = await snapshot(opened.db);
    await migrateToLatest(opened.db);
    after = await snapshot(opened.db);
    await opened.db.destroy();
    running = await createServer(opened.config, { worker: false });
  });

  afterAll(async () => {
    await running?.close();
    await env?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'HEAD' | 'PATCH',
    url: string,
    opts: {
      token?: string;
      body?: object;
      payload?: Buffer;
      headers?: Record<string, string>;
    } = {},
  ) =>
    app().app.inject({
      method,
      url,
      remoteAddress: nextAddress(),
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...opts.headers,
      },
      ...(opts.body ? { payload: opts.body } : opts.payload ? { payload: opts.payload } : {}),
    });

  /** Follows a signed link without credentials, as a browser's download does. */
  const fetchLink = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json<{ url: string }>().url);
    return call('GET', `${url.pathname}${url.search}`);
  };

  it('has run every migration of the list, the fixture point first', async () => {
    expect(before.tables.has('teams')).toBe(true);
    expect(before.tables.has('upload_locks')).toBe(false);
    expect(await executed(app().ctx.db)).toEqual(MIGRATION_NAMES);
  });

  it('keeps every row with every value it had, in every table', () => {
    expect(lostSince(before, after)).toEqual([]);
    const was = counts(before);
    const now = counts(after);
    for (const [table, count] of Object.entries(was)) expect(now[table], table).toBe(count);
    expect(was.users).toBe(7);
    expect(was.files).toBe(4);
    expect(was.uploads).toBe(2);
    expect(was.download_parts).toBe(1);
  });

  it('fills what later migrations added for the rows already there', async () => {
    const teams = await sql<{
      id: string;
      name: string;
      name_key: string | null;
      code: string | null;
      strip_location: number;
    }>`select id, name, name_key, code, strip_location from teams`.execute(app().ctx.db);
    expect(teams.rows).toHaveLength(2);
    for (const team of teams.rows) {
      expect(team.name_key).toBe(teamNameKey(team.name));
      expect(team.code).toMatch(/^[2-9A-HJKMNP-Z]{7}$/);
      expect(team.strip_location).toBe(0);
    }
    expect(new Set(teams.rows.map((t) => t.code)).size).toBe(2);
    const members = await sql<{
      nickname: string;
      nickname_key: string | null;
    }>`select nickname, nickname_key from team_members where team_id = ${old.team.id}`.execute(
      app().ctx.db,
    );
    for (const member of members.rows)
      expect(member.nickname_key).toBe(nicknameKey(member.nickname));
  });

  it('signs every member in with e-mail and password', async () => {
    for (const role of ['owner', 'admin', 'uploader', 'viewer'] as const) {
      const res = await call('POST', '/api/auth/signin', {
        body: { email: world.users[role].email.toUpperCase(), password: FIXTURE_PASSWORD },
      });
      expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
      tokens[role] = res.json<AuthResultResponse>().result.AccessToken;
    }
    const oldest = await call('POST', '/api/auth/signin', {
      body: { email: old.owner.email, password: FIXTURE_PASSWORD },
    });
    expect(oldest.statusCode, oldest.body).toBe(200);
    const wrong = await call('POST', '/api/auth/signin', {
      body: { email: world.users.owner.email, password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(401);
    // The internal member who never signed in must still choose a password, the team named by its alias.
    const internal = await call('POST', '/api/auth/signin', {
      body: { username: old.internal.username, team: old.team.alias, password: FIXTURE_PASSWORD },
    });
    expect(internal.statusCode, internal.body).toBe(403);
    expect(internal.json()).toMatchObject({ errorCode: 'newPasswordRequired' });
  });

  it("lists each member's collections and their files", async () => {
    const names = async (role: Role, url: string) => {
      const res = await call('GET', url, { token: tokens[role] });
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<CollectionListResponse>()
        .collections.map((c) => c.name)
        .sort();
    };
    const { ceremony, guests, drafts } = world.collections;
    const all = [ceremony.name, guests.name, drafts.name].sort();
    expect(await names('owner', '/api/collections')).toEqual(all);
    expect(await names('viewer', `/api/teams/${world.team.alias}/collections`)).toEqual(all);
    // An uploader sees its own collections and the collaborative ones.
    expect(await names('uploader', '/api/collections')).toEqual([guests.name, drafts.name].sort());

    for (const collection of [ceremony, guests, drafts]) {
      const res = await call(
        'GET',
        `/api/teams/${world.team.id}/collections/${collection.id}/files`,
        { token: tokens.admin },
      );
      expect(res.statusCode, res.body).toBe(200);
      const listed = res
        .json<FileListResponse>()
        .files.map((f) => ({ id: f.fileId, name: f.name, size: f.size, sha256: f.sha256 }));
      const expected = world.files
        .filter((f) => f.collectionId === collection.id)
        .map((f) => ({ id: f.id, name: f.name, size: f.size, sha256: f.sha256 }));
      expect(listed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        expected.sort((a, b) => a.id.localeCompare(b.id)),
      );
    }
  });

  it('downloads every file by its link, byte for byte', async () => {
    for (const file of world.files) {
      const link = await call(
        'GET',
        `/api/teams/${world.team.id}/collections/${file.collectionId}/files/${file.id}/download`,
        { token: tokens.viewer },
      );
      const served = await fetchLink(link);
      expect(served.statusCode, file.name).toBe(200);
      expect(sha256(served.rawPayload), file.name).toBe(file.sha256);
    }
  });

  it('serves the collection download prepared before the upgrade', async () => {
    const status = await call('GET', `/api/teams/${world.team.id}/downloads/${world.download.id}`, {
      token: tokens.owner,
    });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({ status: 'ready', totalParts: 1 });
    const served = await fetchLink(
      await call('GET', `/api/teams/${world.team.id}/downloads/${world.download.id}/download`, {
        token: tokens.owner,
      }),
    );
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBe(world.download.size);
    expect(sha256(served.rawPayload)).toBe(world.download.sha256);
  });

  it('continues the upload in progress at its stored offset to a file', async () => {
    const { upload } = world;
    const url = `/api/teams/${world.team.id}/collections/${upload.collectionId}/uploads/${upload.id}`;
    const tus = { 'tus-resumable': '1.0.0' };
    const head = await call('HEAD', url, { token: tokens.uploader, headers: tus });
    expect(head.statusCode, head.body).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(upload.offset));
    expect(head.headers['upload-length']).toBe(String(upload.data.length));

    const patch = await call('PATCH', url, {
      token: tokens.uploader,
      headers: {
        ...tus,
        'upload-offset': String(upload.offset),
        'content-type': 'application/offset+octet-stream',
      },
      payload: upload.data.subarray(upload.offset),
    });
    expect(patch.statusCode, patch.body).toBe(204);
    expect(patch.headers['upload-offset']).toBe(String(upload.data.length));

    const list = await call(
      'GET',
      `/api/teams/${world.team.id}/collections/${upload.collectionId}/files`,
      { token: tokens.uploader },
    );
    const file = list.json<FileListResponse>().files.find((f) => f.fileId === upload.id);
    expect(file, list.body).toMatchObject({
      name: upload.fileName,
      size: upload.data.length,
      sha256: sha256(upload.data),
    });
    const served = await fetchLink(
      await call(
        'GET',
        `/api/teams/${world.team.id}/collections/${upload.collectionId}/files/${upload.id}/download`,
        { token: tokens.owner },
      ),
    );
    expect(sha256(served.rawPayload)).toBe(sha256(upload.data));
  });
});
