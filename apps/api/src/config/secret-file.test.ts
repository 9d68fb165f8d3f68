import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { copySecretFile, ensureSecretFile } from './secret-file.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const dirs: string[] = [];
const freshDataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-secret-'));
  dirs.push(dir);
  return path.join(dir, 'data');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ROUNDS = 100;

/**
 * API starts, as far as their configuration: a process of its own that loads it on
 * `dataDir/0`, `dataDir/1`… (fresh folders, each started on by every process at about the same
 * time), and prints each secret and key it got.
 */
function startOn(dataDir: string, startAt: number): Promise<string[]> {
  const script = [
    "const { loadConfig } = await import('./apps/api/src/config/config.ts');",
    // Everyone waits for the same instant, so the starts overlap however long the imports took.
    `while (Date.now() < ${startAt} - 20) await new Promise((r) => setTimeout(r, 5));`,
    `while (Date.now() < ${startAt});`,
    'const seen = [];',
    `for (let round = 0; round < ${ROUNDS}; round++) {`,
    `  const config = loadConfig({ DATA_DIR: ${JSON.stringify(dataDir)} + '/' + round });`,
    "  seen.push(config.secret + ' ' + config.storageEncryptionKey.toString('hex'));",
    '}',
    'console.log(JSON.stringify(seen));',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
}

describe('the secret files under DATA_DIR', () => {
  it(
    'are the same for processes starting together on a fresh DATA_DIR',
    { timeout: 60_000 },
    async () => {
      const dataDir = freshDataDir();
      const startAt = Date.now() + 5000;
      const [first, ...others] = await Promise.all(
        [1, 2, 3, 4].map(() => startOn(dataDir, startAt)),
      );
      for (const other of others) expect(other).toEqual(first);
      for (let round = 0; round < ROUNDS; round++) {
        const folder = path.join(dataDir, String(round));
        const [secret, key] = (first?.[round] ?? '').split(' ');
        expect(readFileSync(path.join(folder, '.secret'), 'utf8')).toBe(secret);
        expect(loadConfig({ DATA_DIR: folder }).storageEncryptionKey.toString('hex')).toBe(key);
        // Nothing half-made is left beside them.
        expect(readdirSync(folder).sort()).toEqual(['.secret', '.storage-key']);
      }
    },
  );

  it('makes .secret once, readable by its owner only, and keeps it', () => {
    const dataDir = freshDataDir();
    const first = loadConfig({ DATA_DIR: dataDir }).secret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, '.secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).secret).toBe(first);
  });

  it('keeps an existing good .secret, as a restore or an operator wrote it', () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir);
    const written = `${'s'.repeat(20)}-restored-secret-0123\n`;
    writeFileSync(path.join(dataDir, '.secret'), written);
    expect(loadConfig({ DATA_DIR: dataDir }).secret).toBe(written.trim());
    expect(readFileSync(path.join(dataDir, '.secret'), 'utf8')).toBe(written);
  });

  it('refuses a damaged, short or empty .secret, naming it and what to do, and leaves it', () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir);
    const file = path.join(dataDir, '.secret');
    for (const damaged of ['short', '', '\0'.repeat(43), `${'a'.repeat(40)}\u0001`]) {
      writeFileSync(file, damaged);
      let error: unknown;
      try {
        loadConfig({ DATA_DIR: dataDir });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain(file);
      expect(message).toMatch(/is (damaged or too short|empty)/);
      expect(message).toContain('Restore it from a backup, or set APP_SECRET');
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    }
  });

  it('refuses a damaged .storage-key, saying not to delete it', () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir);
    const file = path.join(dataDir, '.storage-key');
    writeFileSync(file, Buffer.alloc(32, 7).toString('base64url').slice(0, 20));
    expect(() => loadConfig({ DATA_DIR: dataDir, APP_SECRET: 'x'.repeat(32) })).toThrow(
      /\.storage-key: is damaged or too short;[\s\S]*Never delete it while encrypted files exist/,
    );
  });

  it('refuses a .secret it cannot read', () => {
    const dataDir = freshDataDir();
    mkdirSync(path.join(dataDir, '.secret'), { recursive: true });
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/\.secret: cannot be read \(EISDIR\)/);
  });

  it('makes no secret file when another setting is invalid', () => {
    const dataDir = freshDataDir();
    expect(() => loadConfig({ DATA_DIR: dataDir, MAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL/);
    expect(() => statSync(dataDir)).toThrow(/ENOENT/);
  });
});

describe('ensureSecretFile', () => {
  const kind = (made: string) => ({
    make: () => made,
    read: (text: string) => (text.startsWith('value-') ? text : null),
    holds: 'a value',
    remedy: 'Restore it.',
  });

  it("reads the winner's value when another process places the file between its read and link", () => {
    const dataDir = freshDataDir();
    const file = path.join(dataDir, '.secret');
    const racing = {
      ...kind('value-ours'),
      make: () => {
        // The rival's link lands while this process writes its own value.
        writeFileSync(file, 'value-theirs');
        return 'value-ours';
      },
    };
    expect(ensureSecretFile(file, racing)).toBe('value-theirs');
    expect(readFileSync(file, 'utf8')).toBe('value-theirs');
    expect(readdirSync(dataDir)).toEqual(['.secret']);
  });

  it('writes a new value whole, mode 0600, and returns it', () => {
    const dataDir = freshDataDir();
    const file = path.join(dataDir, '.secret');
    expect(ensureSecretFile(file, kind('value-new'))).toBe('value-new');
    expect(readFileSync(file, 'utf8')).toBe('value-new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ensureSecretFile(file, kind('value-other'))).toBe('value-new');
  });
});

describe('copySecretFile', () => {
  it('replaces the target whole, readable by its owner only, leaving no temporary file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-secret-copy-'));
    try {
      const from = path.join(dir, 'snapshot-secret');
      const to = path.join(dir, '.secret');
      writeFileSync(from, 'the-snapshot-value', { mode: 0o644 });
      writeFileSync(to, 'a-value-made-before-the-restore', { mode: 0o644 });
      copySecretFile(from, to);
      expect(readFileSync(to, 'utf8')).toBe('the-snapshot-value');
      expect(statSync(to).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir).sort()).toEqual(['.secret', 'snapshot-secret']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
