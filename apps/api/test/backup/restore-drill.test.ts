import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backup, type BackupReport } from '../../src/backup/backup.js';
import { BackupError, readManifest, SNAPSHOTS_DIR } from '../../src/backup/manifest.js';
import { restore } from '../../src/backup/restore.js';
import { loadConfig } from '../../src/config/config.js';
import { createServer, type Server } from '../../src/server.js';
import { createStorage } from '../../src/storage/create-storage.js';
import { createCollection } from '../files/files-world.js';
import { filesClient, nextAddress } from '../files/files-api.js';
import { createTeam, createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { createTestDatabase, testDbKind } from '../helpers/test-db.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const SECRET = 'drill-secret-drill-secret-drill-secret-01';
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `raccolta-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

describe.each(['local', 's3'] as const)(`backup and restore on ${testDbKind()} + %s`, (kind) => {
  it(
    'restores a backup taken under steady writes: every file downloads intact, every user signs in',
    { timeout: 120_000 },
    async () => {
      let s3: TestS3 | null = null;
      if (kind === 's3') {
        s3 = await startTestS3({ prefix: 'drill' });
        cleanups.push(() => s3?.close());
      }
      const storageEnv = s3?.env ?? {};
      const server = await startTestServer({ APP_SECRET: SECRET, ...storageEnv });
      cleanups.push(() => server.close());
      const { ctx } = server;

      const users = await Promise.all(
        ['owner', 'admin', 'viewer'].map((name) =>
          createUser(ctx, { email: `${name}-${randomBytes(3).toString('hex')}@example.com` }),
        ),
      );
      const owner = users[0] as (typeof users)[number];
      const team = await createTeam(ctx, { owner });
      const collection = await createCollection(ctx, {
        teamId: team.id,
        createdBy: owner.id,
        mode: 'collaborative',
        name: 'Drill',
      });
      const client = await filesClient(server, owner);
      const uploaded = new Map<string, string>(); // file name → SHA-256 of what was sent
      let made = 0;
      const upload = async () => {
        const name = `photo-${++made}.bin`;
        const data = randomBytes(20_000 + Math.floor(Math.random() * 200_000));
        const res = await client.upload(team.id, collection.id, { filename: name, data });
        expect(res.statusCode, res.body).toBe(201);
        uploaded.set(name, sha(data));
        return res.json<{ fileId: string }>().fileId;
      };
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await upload());

      // Steady writes (uploads, renames, deletions) while the backup runs.
      const state = { writing: true };
      let round = 0;
      const writer = (async () => {
        while (state.writing) {
          round++;
          ids.push(await upload());
          if (round % 3 === 0) {
            const victim = ids.splice(Math.floor(Math.random() * ids.length), 1)[0] ?? '';
            const res = await client.delete(
              `/teams/${team.id}/collections/${collection.id}/files/${victim}`,
            );
            expect(res.statusCode).toBe(204);
          }
          if (round % 2 === 0) {
            const res = await server.app.inject({
              method: 'PATCH',
              url: `/api/teams/${team.id}/collections/${collection.id}`,
              headers: client.headers,
              remoteAddress: nextAddress(),
              payload: [{ op: 'replace', path: '/name', value: `Drill ${round}` }],
            });
            expect(res.statusCode, res.body).toBe(200);
          }
        }
      })();
      const backupDir = tempDir('backup');
      const deps = { config: server.config, db: ctx.db, storage: ctx.storage };
      while (round < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      const first = await backup(deps, backupDir);
      const afterFirst = round;
      while (round < afterFirst + 3) await new Promise((resolve) => setTimeout(resolve, 10));
      state.writing = false;
      await writer;

      expect(first.missing).toEqual([]);
      expect(first.damaged).toEqual([]);
      expect(first.objects).toBeGreaterThanOrEqual(8);
      expect(first.copied).toBe(kind === 'local' ? first.objects : 0);

      // Incremental: the second run copies only what the first did not hold.
      const second: BackupReport = await backup(deps, backupDir, new Date(Date.now() + 1000));
      const firstKeys = new Set(
        (await readManifest(path.join(backupDir, SNAPSHOTS_DIR, first.snapshot))).objects.map(
          (o) => o.key,
        ),
      );
      const secondKeys = (
        await readManifest(path.join(backupDir, SNAPSHOTS_DIR, second.snapshot))
      ).objects.map((o) => o.key);
      const fresh = secondKeys.filter((key) => !firstKeys.has(key));
      expect(fresh.length).toBeGreaterThan(0);
      expect(second.copied).toBe(kind === 'local' ? fresh.length : 0);

      // Into a fresh instance: a new DATA_DIR and an empty database (the same bucket on S3).
      const target = tempDir('restored');
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: target,
        APP_SECRET: SECRET,
        LOG_LEVEL: 'silent',
        SERVE_WEB: 'false',
        ...storageEnv,
      });
      config.database = database.config;
      const restored = await restore(
        { config, storage: createStorage(config, Date.now) },
        backupDir,
        first.snapshot,
      );
      expect(restored.missing).toEqual([]);
      expect(restored.damaged).toEqual([]);
      expect(restored.objects).toBe(first.objects);

      // A second restore over it is refused and changes nothing.
      await expect(
        restore({ config, storage: createStorage(config, Date.now) }, backupDir),
      ).rejects.toThrow(BackupError);

      const again: Server = await createServer(config, { worker: false });
      cleanups.push(() => again.close());
      const againServer: TestServer = { ...again, config, dataDir: target };
      // What was in the trash at the backup comes back from it too, bytes included.
      const trashed = await again.ctx.db
        .selectFrom('trash')
        .select('id')
        .where('parent_id', 'is', null)
        .execute();
      expect(trashed.length).toBeGreaterThan(0);
      const back = await again.app.inject({
        method: 'POST',
        url: `/api/teams/${team.id}/trash/restore`,
        headers: client.headers,
        remoteAddress: nextAddress(),
        payload: { itemIds: trashed.map((t) => t.id) },
      });
      expect(back.statusCode, back.body).toBe(200);
      const rows = await again.ctx.db.selectFrom('files').selectAll().execute();
      expect(rows.length).toBe(first.objects);
      const listed = await (
        await filesClient(againServer, owner)
      ).listAll(`/teams/${team.id}/collections/${collection.id}/files`);
      expect(listed.map((f) => f.fileId).sort()).toEqual(rows.map((r) => r.id).sort());

      const againClient = await filesClient(againServer, owner);
      for (const row of rows) {
        const link = await againClient.get(
          `/teams/${team.id}/collections/${collection.id}/files/${row.id}/download`,
        );
        expect(link.statusCode, link.body).toBe(200);
        const url = new URL(link.json<{ url: string }>().url);
        const bytes =
          kind === 's3'
            ? Buffer.from(await (await fetch(url)).arrayBuffer())
            : (await again.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` }))
                .rawPayload;
        expect(sha(bytes), row.name).toBe(row.sha256);
        expect(sha(bytes), row.name).toBe(uploaded.get(row.name));
      }

      for (const user of users) {
        const res = await again.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          remoteAddress: nextAddress(),
          payload: { email: user.email, password: TEST_PASSWORD },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    },
  );
});
