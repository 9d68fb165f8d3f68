import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig } from './config.js';

describe('configuration', () => {
  it('documents every setting in .env.example, and nothing else', () => {
    const example = readFileSync(new URL('../../../../.env.example', import.meta.url), 'utf8');
    const documented = [...example.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({
      DATA_DIR: '/tmp/raccolta-config-test',
      APP_SECRET: 'x'.repeat(32),
    });
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: '/tmp/raccolta-config-test/raccolta.db',
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
});
