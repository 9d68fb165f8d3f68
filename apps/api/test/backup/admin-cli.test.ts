import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createServer } from '../../src/server.js';
import { createCollection } from '../files/files-world.js';
import { filesClient } from '../files/files-api.js';
import { createTeam, createUser } from '../helpers/factories.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `raccolta-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** `npm run admin -- …` as an operator runs it, on the embedded defaults under `dataDir`. */
function admin(dataDir: string, ...args: string[]) {
  const result = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'apps/api/src/cli/admin.ts', ...args],
    {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
      encoding: 'utf8',
    },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

it(
  'backs up and restores the embedded defaults from the command line',
  { timeout: 90_000 },
  async () => {
    // An instance on the defaults: SQLite and local disk under DATA_DIR, its secret made there.
    const source = tempDir('source');
    const config = loadConfig({ DATA_DIR: source, LOG_LEVEL: 'silent', SERVE_WEB: 'false' });
    const server = await createServer(config, { worker: false });
    const owner = await createUser(server.ctx, { email: 'cli-owner@example.com' });
    const team = await createTeam(server.ctx, { owner });
    const collection = await createCollection(server.ctx, {
      teamId: team.id,
      createdBy: owner.id,
      mode: 'collaborative',
    });
    const client = await filesClient({ ...server, config, dataDir: source }, owner);
    const data = randomBytes(50_000);
    const res = await client.upload(team.id, collection.id, { filename: 'a.bin', data });
    expect(res.statusCode, res.body).toBe(201);
    const storageKey = (
      await server.ctx.db.selectFrom('files').select('storage_key').executeTakeFirstOrThrow()
    ).storage_key;
    await server.close();

    const backupDir = tempDir('backup');
    const made = admin(source, 'backup', backupDir);
    expect(made.out).toMatch(/Backup \S+ written to/);
    expect(made.out).toContain('objects: 1 listed with their SHA-256; 1 copied this time');
    expect(made.out).toContain('keys: .secret, .storage-key');
    expect(made.status).toBe(0);
    const again = admin(source, 'backup', backupDir);
    expect(again.out).toContain('0 copied this time');

    const target = path.join(tempDir('target'), 'data');
    const restored = admin(target, 'restore', backupDir);
    expect(restored.out).toContain('Restored backup');
    expect(restored.out).toContain('1 of 1 objects');
    expect(restored.status).toBe(0);
    expect(existsSync(path.join(target, 'raccolta.db'))).toBe(true);
    expect(readFileSync(path.join(target, 'files', ...storageKey.split('/'))).equals(data)).toBe(
      true,
    );
    expect(readFileSync(path.join(target, '.secret'), 'utf8')).toBe(
      readFileSync(path.join(source, '.secret'), 'utf8'),
    );
    // The keys in the backup and the restored ones are the owner's to read only.
    const snapshots = path.join(backupDir, 'snapshots');
    const [snapshot] = readdirSync(snapshots);
    for (const file of [
      path.join(snapshots, snapshot ?? '', '.secret'),
      path.join(target, '.secret'),
    ]) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }

    const refused = admin(target, 'restore', backupDir);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('restore into an empty DATA_DIR');
    expect(refused.out).toContain('Nothing was changed');
    expect(refused.out).not.toMatch(/\n\s+at /);

    const usage = admin(target, 'backup');
    expect(usage.status).toBe(1);
    expect(usage.out).toContain('backup needs a folder');
  },
);
