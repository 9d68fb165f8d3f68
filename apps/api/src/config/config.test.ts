import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, envSections, loadConfig } from './config.js';

const repoFile = (name: string) =>
  readFileSync(new URL(`../../../../${name}`, import.meta.url), 'utf8');

/** `.env.example` as NAME → value, in its order. */
const example = new Map(
  [...repoFile('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [
    m[1] ?? '',
    m[2] ?? '',
  ]),
);

/** The value a variable takes when it is not set, as written in `.env.example`; undefined: none. */
function schemaDefault(name: string): string | undefined {
  const field = envSchema.shape[name as keyof typeof envSchema.shape];
  const parsed = field.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return undefined;
  return Array.isArray(parsed.data) ? parsed.data.join(',') : String(parsed.data);
}

describe('the documentation of the settings', () => {
  it('lists every variable of the schemas in .env.example, once, and nothing else', () => {
    expect([...example.keys()].sort()).toEqual(Object.keys(envSchema.shape).sort());
    const lines = [...repoFile('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)];
    expect(lines).toHaveLength(example.size);
  });

  it('has each variable in one section schema only', () => {
    const names = Object.values(envSections).flatMap((section) => Object.keys(section.shape));
    expect(names).toHaveLength(new Set(names).size);
    expect(names.sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('writes in .env.example the default of every variable that has one', () => {
    const differing = [...example]
      .filter(([name, documented]) => {
        const value = schemaDefault(name);
        return value !== undefined && documented !== value;
      })
      .map(([name, documented]) => `${name}=${documented} (default ${schemaDefault(name)})`);
    expect(differing).toEqual([]);
  });

  it('documents in .env.example what an unset variable means: the file gives the default Config', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-example-'));
    try {
      const fixed = { DATA_DIR: dir, APP_SECRET: 'x'.repeat(32) };
      expect(loadConfig({ ...Object.fromEntries(example), ...fixed })).toEqual(loadConfig(fixed));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the schema default in the tables of README.md and docs/', () => {
    const wrong: string[] = [];
    for (const file of ['README.md', 'docs/deployment.md', 'docs/operations.md']) {
      for (const row of repoFile(file).matchAll(/^\| ([^|]+) \| ([^|]+) \|/gm)) {
        const names = [...(row[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? '');
        if (names.length === 0 || !names.every((name) => example.has(name))) continue;
        const cells = (row[2] ?? '').split(', ');
        names.forEach((name, i) => {
          const cell = cells[i]?.trim();
          if (cell === undefined) return;
          const value = schemaDefault(name);
          // A literal (`auto`, 7, `0` (off)); prose such as "2 GiB" or "generated in …" is not checked.
          const literal = /^`?([^`\s]+)`?(?: \(.*\))?$/.exec(cell)?.[1];
          if (
            cell === 'none'
              ? value !== undefined
              : literal !== undefined && value !== undefined && literal !== value
          )
            wrong.push(`${file}: ${name} documented ${cell}, default ${value ?? 'none'}`);
        });
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('configuration', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({
      DATA_DIR: '/tmp/raccolta-config-test',
      APP_SECRET: 'x'.repeat(32),
    });
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: '/tmp/raccolta-config-test/raccolta.db',
      driver: 'auto',
    });
    expect(config.storage).toEqual({ kind: 'local', root: '/tmp/raccolta-config-test/files' });
    expect(config.mail.transport).toBe('console');
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.apiPublicUrl).toBe('http://localhost:3000/api');
    expect(config.webOrigins).toEqual(['http://localhost:3000']);
    expect(config.worker.inline).toBe(true);
  });

  it('selects PostgreSQL from DATABASE_URL', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h:5432/d',
      APP_SECRET: 'x'.repeat(32),
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/d',
      poolSize: 10,
    });
  });

  it('names every invalid setting', () => {
    expect(() =>
      loadConfig({ PORT: 'abc', MAIL_TRANSPORT: 'pigeon', APP_SECRET: 'x'.repeat(32) }),
    ).toThrow(/PORT[\s\S]*MAIL_TRANSPORT/);
    expect(() => loadConfig({ MAIL_TRANSPORT: 'smtp', APP_SECRET: 'x'.repeat(32) })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('exposes no metrics by default; METRICS_TOKEN of 16 characters or more, METRICS_PORT', () => {
    const secret = { APP_SECRET: 'x'.repeat(32) };
    expect(loadConfig(secret).metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
    // As .env.example lists them: empty is unset.
    expect(loadConfig({ ...secret, METRICS_TOKEN: '', METRICS_PORT: '' }).metrics).toEqual({
      token: null,
      port: null,
      host: '127.0.0.1',
    });
    expect(
      loadConfig({
        ...secret,
        METRICS_TOKEN: 't'.repeat(16),
        METRICS_PORT: '9464',
        METRICS_HOST: '10.0.0.5',
      }).metrics,
    ).toEqual({ token: 't'.repeat(16), port: 9464, host: '10.0.0.5' });
    expect(loadConfig({ ...secret, METRICS_PORT: '0' }).metrics.port).toBe(0);
    expect(() => loadConfig({ ...secret, METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: at least 16 characters/,
    );
    expect(() => loadConfig({ ...secret, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('takes PORT=0 (any free port) only with the public URL that names the port', () => {
    const secret = { APP_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...secret, PORT: '0' })).toThrow(/PUBLIC_URL: required when PORT=0/);
    const config = loadConfig({ ...secret, PORT: '0', PUBLIC_URL: 'https://raccolta.example' });
    expect(config.port).toBe(0);
    expect(config.publicUrl).toBe('https://raccolta.example');
  });
});

describe('storage encryption key', () => {
  const secret = { APP_SECRET: 'x'.repeat(32) };
  const withDataDir = (run: (dir: string) => void) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-key-'));
    try {
      run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('reads STORAGE_ENCRYPTION_KEY as 64 hex digits or base64 of 32 bytes', () => {
    withDataDir((dir) => {
      const key = Buffer.alloc(32, 0xab);
      for (const written of [
        key.toString('hex'),
        key.toString('base64'),
        key.toString('base64url'),
      ]) {
        const config = loadConfig({ ...secret, DATA_DIR: dir, STORAGE_ENCRYPTION_KEY: written });
        expect(config.storageEncryptionKey.equals(key)).toBe(true);
      }
    });
  });

  it('refuses a key of another length or not encoded', () => {
    withDataDir((dir) => {
      for (const bad of [
        'ab'.repeat(16),
        Buffer.alloc(31).toString('base64'),
        'not a key at all',
      ]) {
        expect(() => loadConfig({ ...secret, DATA_DIR: dir, STORAGE_ENCRYPTION_KEY: bad })).toThrow(
          /STORAGE_ENCRYPTION_KEY/,
        );
      }
    });
  });

  it('reads STORAGE_ENCRYPTION_PREVIOUS_KEYS as keys separated by commas, none by default', () => {
    withDataDir((dir) => {
      expect(loadConfig({ ...secret, DATA_DIR: dir }).storageEncryptionPreviousKeys).toEqual([]);
      const [a, b] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
      const config = loadConfig({
        ...secret,
        DATA_DIR: dir,
        STORAGE_ENCRYPTION_PREVIOUS_KEYS: ` ${a.toString('hex')} ,${b.toString('base64')},`,
      });
      expect(config.storageEncryptionPreviousKeys).toEqual([a, b]);
      for (const bad of [`${a.toString('hex')},not a key`, Buffer.alloc(16).toString('hex')]) {
        expect(() =>
          loadConfig({ ...secret, DATA_DIR: dir, STORAGE_ENCRYPTION_PREVIOUS_KEYS: bad }),
        ).toThrow(/STORAGE_ENCRYPTION_PREVIOUS_KEYS/);
      }
    });
  });

  it('makes a key once under DATA_DIR when none is set, and keeps it', () => {
    withDataDir((dir) => {
      const first = loadConfig({ ...secret, DATA_DIR: dir }).storageEncryptionKey;
      expect(first).toHaveLength(32);
      const file = path.join(dir, '.storage-key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadConfig({ ...secret, DATA_DIR: dir }).storageEncryptionKey.equals(first)).toBe(
        true,
      );
    });
  });

  it('refuses a damaged key file instead of replacing it', () => {
    withDataDir((dir) => {
      const file = path.join(dir, '.storage-key');
      writeFileSync(file, 'damaged');
      expect(() => loadConfig({ ...secret, DATA_DIR: dir })).toThrow(ConfigError);
      expect(readFileSync(file, 'utf8')).toBe('damaged');
    });
  });
});

describe('S3 storage configuration', () => {
  const base = { APP_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/raccolta-config-test', STORAGE: 's3' };

  it('reads every S3 setting, normalising the prefix to one trailing slash', () => {
    const config = loadConfig({
      ...base,
      S3_BUCKET: 'media',
      S3_REGION: 'eu-south-1',
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: '/raccolta/prod/',
    });
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'media',
      region: 'eu-south-1',
      endpoint: 'http://minio.internal:9000',
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      prefix: 'raccolta/prod/',
    });
  });

  it('leaves endpoint and credentials to the AWS defaults when unset', () => {
    const config = loadConfig({ ...base, S3_BUCKET: 'media', S3_PREFIX: '/' });
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'media',
      region: 'us-east-1',
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('requires a bucket', () => {
    expect(() => loadConfig(base)).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, S3_BUCKET: '' })).toThrow(/S3_BUCKET/);
  });

  it('refuses one credential without the other', () => {
    for (const half of [{ S3_ACCESS_KEY_ID: 'AKIA' }, { S3_SECRET_ACCESS_KEY: 'secret' }]) {
      expect(() => loadConfig({ ...base, S3_BUCKET: 'media', ...half })).toThrow(
        /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
      );
    }
  });

  it('refuses an endpoint that is not a URL and an unknown driver', () => {
    expect(() => loadConfig({ ...base, S3_BUCKET: 'media', S3_ENDPOINT: 'not a url' })).toThrow(
      /S3_ENDPOINT/,
    );
    expect(() => loadConfig({ ...base, STORAGE: 'ftp' })).toThrow(/STORAGE/);
  });

  it('reads a setting listed empty, as .env.example lists them, as not set', () => {
    const config = loadConfig({
      DATA_DIR: '/tmp/raccolta-config-test',
      APP_SECRET: 'x'.repeat(32),
      DATABASE_URL: '',
      STORAGE: 's3',
      S3_BUCKET: 'files',
      S3_ENDPOINT: '',
      S3_ACCESS_KEY_ID: '',
      S3_SECRET_ACCESS_KEY: '',
    });
    expect(config.database.kind).toBe('sqlite');
    expect(config.storage).toMatchObject({ kind: 's3', bucket: 'files' });
    expect(config.storage).not.toHaveProperty('endpoint');
  });
});

describe('feature flags and analytics configuration', () => {
  const base = { APP_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/raccolta-config-test' };

  it('defaults to no flags and no analytics', () => {
    const config = loadConfig(base);
    expect(config.featureFlags).toEqual([]);
    expect(config.analytics).toBeNull();
  });

  it('refuses an unknown feature flag by name', () => {
    expect(() => loadConfig({ ...base, FEATURE_FLAGS: 'lang-switcher,dark-magic' })).toThrow(
      /FEATURE_FLAGS/,
    );
  });

  it('needs a script URL for a provider, and a site id for Matomo', () => {
    expect(() => loadConfig({ ...base, ANALYTICS_PROVIDER: 'plausible' })).toThrow(
      /ANALYTICS_SCRIPT_URL/,
    );
    expect(() =>
      loadConfig({
        ...base,
        ANALYTICS_PROVIDER: 'matomo',
        ANALYTICS_SCRIPT_URL: 'https://m.example/matomo.js',
      }),
    ).toThrow(/ANALYTICS_SITE_ID/);
    expect(() =>
      loadConfig({
        ...base,
        ANALYTICS_PROVIDER: 'plausible',
        ANALYTICS_SCRIPT_URL: 'javascript:alert(1)',
      }),
    ).toThrow(/ANALYTICS_SCRIPT_URL/);
  });

  it('takes the Plausible domain from ANALYTICS_SITE_ID when given', () => {
    const config = loadConfig({
      ...base,
      ANALYTICS_PROVIDER: 'plausible',
      ANALYTICS_SCRIPT_URL: 'https://p.example/js/script.js',
      ANALYTICS_SITE_ID: 'raccolta.example',
    });
    expect(config.analytics).toEqual({
      provider: 'plausible',
      scriptUrl: 'https://p.example/js/script.js',
      domain: 'raccolta.example',
    });
  });
});
