import type { Download } from '@raccolta/contracts';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { partKey } from '../../src/downloads/downloads.keys.js';
import type { FileRow } from '../../src/files/files.repository.js';
import { sleep } from '../../src/jobs/test-utils.fixture.js';
import { createContext } from '../../src/runtime.js';
import { createCollection, createStoredFile } from '../files/files-world.js';
import { startApiProcess, type ApiProcess } from '../helpers/api-process.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { accessToken, buildWorld, type World } from '../members/world.js';
import { archiveDir } from './downloads-env.js';
import { inspectZip, type ZipListing } from './zip-check.js';

const MiB = 1024 * 1024;
const FILES = 160;

function databaseUrl(config: Config['database']): string {
  return config.kind === 'postgres' ? config.url : `sqlite:${config.file}`;
}

describe('a worker killed mid-archive', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let ctx: AppContext;
  let world: World;
  const zips = archiveDir();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-download-crash-'));
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl(database.config),
      APP_SECRET: 'crash-test-secret-crash-test-secret-0123',
      PUBLIC_URL: 'http://raccolta.test',
      DOWNLOAD_PART_MAX_BYTES: String(16 * MiB),
      // A killed worker's lease runs out quickly, so the next process takes the job over.
      JOB_LEASE_MS: '1000',
      JOB_POLL_MS: '50',
    };
    ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent', SERVE_WEB: 'false' }));
    world = await buildWorld(ctx);
  });
  afterAll(async () => {
    await ctx.db.destroy();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    zips.remove();
  });

  async function getDownload(api: ApiProcess, token: string, id: string): Promise<Download> {
    const res = await fetch(`${api.origin}/api/teams/${world.team.id}/downloads/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return (await res.json()) as Download;
  }

  /** Every part the database calls stored is a complete zip, exactly its planned files. */
  async function checkStoredParts(id: string): Promise<ZipListing[]> {
    const parts = await ctx.db
      .selectFrom('download_parts')
      .selectAll()
      .where('download_id', '=', id)
      .where('storage_key', 'is not', null)
      .execute();
    const entries: ZipListing[] = [];
    for (const part of parts) {
      const bytes = await buffer(await ctx.storage.get(part.storage_key ?? ''));
      expect(bytes.length).toBe(part.size);
      const listed = await inspectZip(await zips.save(`${id}-${part.part_number}.zip`, bytes));
      expect(listed).toHaveLength(part.file_count);
      entries.push(...listed);
    }
    return entries;
  }

  it('runs again and offers complete, correct parts; a half-written part is never offered', async () => {
    const collection = await createCollection(ctx, {
      teamId: world.team.id,
      createdBy: world.users.owner.id,
      mode: 'owned',
      name: 'Crash',
    });
    const files: FileRow[] = [];
    for (let i = 0; i < FILES; i++)
      files.push(
        await createStoredFile(ctx, {
          collection,
          uploadedBy: world.users.owner.id,
          name: `IMG_${i}.jpg`,
          contentType: 'image/jpeg',
          data: randomBytes(MiB - randomInt(0, 4096)),
        }),
      );
    const token = await accessToken(ctx, world.users.owner);

    let api = await startApiProcess(env);
    try {
      const res = await fetch(`${api.origin}/api/teams/${world.team.id}/downloads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ collectionId: collection.id }),
      });
      expect(res.status).toBe(202);
      const { requestId } = (await res.json()) as Download;

      let readyBefore = 0;
      for (let crash = 0; crash < 2; crash++) {
        // Kill once one more part is stored, a random moment into the next one.
        let download = await getDownload(api, token, requestId);
        while (download.readyParts <= readyBefore) {
          await sleep(5);
          download = await getDownload(api, token, requestId);
        }
        await sleep(randomInt(0, 15));
        await api.kill();
        const row = await ctx.db
          .selectFrom('downloads')
          .selectAll()
          .where('id', '=', requestId)
          .executeTakeFirstOrThrow();
        expect(row.status, 'the build should still have been running').toBe('inProgress');
        expect(row.total_parts).toBeGreaterThan(3);
        await checkStoredParts(requestId);
        readyBefore = download.readyParts;
        api = await startApiProcess(env);
      }

      let done = await getDownload(api, token, requestId);
      const deadline = Date.now() + 60_000;
      while (done.status === 'inProgress' && Date.now() < deadline) {
        await sleep(50);
        done = await getDownload(api, token, requestId);
      }
      expect(done.status).toBe('ready');
      expect(done.readyParts).toBe(done.totalParts);
      const entries = await checkStoredParts(requestId);
      expect(entries.map((e) => e.sha256).sort()).toEqual(files.map((f) => f.sha256).sort());
      expect(new Set(entries.map((e) => e.name)).size).toBe(FILES);
      // The keys are the same on every run: nothing from the killed runs is left beside them.
      for (let part = 1; part <= (done.totalParts ?? 0); part++)
        expect(await ctx.storage.stat(partKey(requestId, part))).not.toBeNull();
    } finally {
      await api.stop();
    }
  }, 180_000);
});
