import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { createContext } from '../../src/runtime.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { startApiProcess, type ApiProcess } from '../helpers/api-process.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { accessToken } from '../members/world.js';
import { metadataHeader } from './tus-client.js';
import { STORAGE_KINDS } from './tus-world.js';

const SIZE = 20 * 1024 * 1024;
const CHUNK = 256 * 1024;

/** The settings the API process and this test share: one database, one data dir, one store. */
function databaseUrl(config: Config['database']): string {
  return config.kind === 'postgres' ? config.url : `sqlite:${config.file}`;
}

/**
 * Streams `data` from `offset` in a PATCH and, once `killAt` bytes of the file are sent, SIGKILLs
 * the server: the request dies with it, as it would on a real crash.
 */
function patchUntilKilled(
  api: ApiProcess,
  url: string,
  token: string,
  data: Buffer,
  offset: number,
  killAt: number,
): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${api.origin}${url}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(data.length - offset),
      },
    });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
    let sent = offset;
    const pump = () => {
      if (sent >= killAt) {
        // Give the server a moment to write what it received, then kill it mid-request.
        setTimeout(() => void api.kill(), 150);
        return;
      }
      const end = Math.min(sent + CHUNK, killAt);
      const more = req.write(data.subarray(sent, end));
      sent = end;
      if (more) setImmediate(pump);
      else req.once('drain', pump);
    };
    pump();
  });
}

async function tusFetch(
  api: ApiProcess,
  url: string,
  token: string,
  init: { method: string; headers?: Record<string, string>; body?: Buffer },
) {
  return fetch(`${api.origin}${url}`, {
    method: init.method,
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...init.headers },
    ...(init.body ? { body: init.body } : {}),
  });
}

// Each storage with the default locks, and the database locks (UPLOAD_LOCKS=database) once: there
// the killed process's lock outlives it, and the resumed HEAD waits out its lease (10 s).
// And a premium team on S3 once: the file is the enciphered copy the resumed process writes,
// with the key the first process generated in DATA_DIR, and no plain object is left beside it.
const CASES = [
  ...STORAGE_KINDS.map((kind) => ({ kind, locks: 'memory', crashes: 3, plan: 'free' as const })),
  { kind: 'local' as const, locks: 'database', crashes: 1, plan: 'free' as const },
  { kind: 's3' as const, locks: 'memory', crashes: 1, plan: 'premium' as const },
];

describe.each(CASES)(
  'a server killed mid-upload on $kind storage, $locks locks, $plan plan',
  ({ kind, locks, crashes, plan }) => {
    let database: TestDatabase;
    let dataDir: string;
    let s3: TestS3 | null = null;
    let env: Record<string, string>;
    let ctx: AppContext;
    let world: FilesWorld;
    let uploader: UserRow;

    beforeAll(async () => {
      database = await createTestDatabase();
      dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-crash-'));
      s3 = kind === 's3' ? await startTestS3({ prefix: 'crash' }) : null;
      env = {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl(database.config),
        APP_SECRET: 'crash-test-secret-crash-test-secret-0123',
        // Tokens name their issuer: the same for this test and every process it starts.
        PUBLIC_URL: 'http://raccolta.test',
        WORKER: 'off',
        UPLOAD_LOCKS: locks,
        ...(s3?.env ?? {}),
      };
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent', SERVE_WEB: 'false' });
      ctx = await createContext(config);
      world = await buildFilesWorld(ctx, { objects: false });
      uploader = world.users.uploader;
      await ctx.db.updateTable('teams').set({ plan }).where('id', '=', world.team.id).execute();
    });
    afterAll(async () => {
      await ctx.db.destroy();
      await database.drop();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('shows nothing partial and resumes to the same SHA-256, killed at random offsets', async () => {
      const data = randomBytes(SIZE);
      const token = await accessToken(ctx, uploader);
      const collection = world.collections.uploaders;
      let api = await startApiProcess(env);
      try {
        const created = await tusFetch(
          api,
          `/api/teams/${collection.team_id}/collections/${collection.id}/uploads`,
          token,
          {
            method: 'POST',
            headers: {
              'upload-length': String(SIZE),
              'upload-metadata': metadataHeader({ filename: 'crash.bin' }),
            },
          },
        );
        expect(created.status).toBe(201);
        const url = created.headers.get('location') ?? '';
        const fileId = url.split('/').pop() ?? '';

        let offset = 0;
        // Crashes, each at a random point past the last one.
        for (let crash = 0; crash < crashes; crash++) {
          const killAt = randomInt(offset + CHUNK, offset + Math.floor((SIZE - offset) / 2));
          await patchUntilKilled(api, url, token, data, offset, killAt);
          const visible = await ctx.db
            .selectFrom('files')
            .select('id')
            .where('id', '=', fileId)
            .executeTakeFirst();
          expect(visible).toBeUndefined();

          api = await startApiProcess(env);
          const head = await tusFetch(api, url, token, { method: 'HEAD' });
          expect(head.status).toBe(200);
          const resumed = Number(head.headers.get('upload-offset'));
          expect(resumed).toBeGreaterThanOrEqual(offset);
          expect(resumed).toBeLessThanOrEqual(killAt);
          offset = resumed;
          const list = await tusFetch(
            api,
            `/api/teams/${collection.team_id}/collections/${collection.id}/files`,
            token,
            { method: 'GET' },
          );
          const listed = (await list.json()) as { files: { id: string }[] };
          expect(listed.files.map((f) => f.id)).not.toContain(fileId);
        }

        const last = await tusFetch(api, url, token, {
          method: 'PATCH',
          headers: {
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          body: data.subarray(offset),
        });
        expect(last.status).toBe(204);
        const file = await ctx.db
          .selectFrom('files')
          .selectAll()
          .where('id', '=', fileId)
          .executeTakeFirstOrThrow();
        expect(file.size).toBe(SIZE);
        expect(file.sha256).toBe(createHash('sha256').update(data).digest('hex'));
        const stored = createHash('sha256');
        for await (const chunk of await ctx.storage.get(file.storage_key))
          stored.update(chunk as Buffer);
        expect(stored.digest('hex')).toBe(file.sha256);
        if (plan === 'premium') {
          expect(file.storage_key).toBe(`uploads/${fileId}.enc`);
          expect(await ctx.storage.stat(`uploads/${fileId}`)).toBeNull();
        }
      } finally {
        await api.stop();
      }
    }, 180_000);
  },
);
