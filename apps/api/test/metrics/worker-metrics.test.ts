import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../../src/mail/send-mail.job.js';
import { sleep, waitUntil } from '../../src/jobs/test-utils.fixture.js';
import type { Db } from '../../src/db/create-db.js';
import { freePort } from '../helpers/api-process.js';
import { openTestDb } from '../helpers/test-db.js';
import { Scrape } from './prometheus-text.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

describe('the METRICS_PORT listener of a worker process (npm run worker)', () => {
  let db: Db;
  let closeDb: () => Promise<void>;
  let databaseUrl: string;
  let dataDir: string;

  beforeAll(async () => {
    const test = await openTestDb();
    db = test.db;
    closeDb = test.close;
    const { config } = test.database;
    databaseUrl = config.kind === 'postgres' ? config.url : `sqlite:${config.file}`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-worker-metrics-'));
  });
  afterAll(async () => {
    await closeDb();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the worker's job counters, and closes with the process on SIGTERM", async () => {
    await enqueueMail(
      db,
      {
        to: 'ada@example.com',
        locale: 'en',
        template: 'verifyEmail',
        vars: { link: 'http://localhost:3000/auth/verify?code=abc', name: 'Ada' },
      },
      Date.now,
    );
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'apps/api/src/cli/worker.ts'],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          APP_SECRET: 'test-secret-test-secret-test-secret-0123',
          LOG_LEVEL: 'silent',
          JOB_POLL_MS: '50',
          METRICS_PORT: String(port),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = `http://127.0.0.1:${port}/metrics`;
    try {
      await waitUntil(
        () => {
          if (child.exitCode !== null) throw new Error(`the worker exited:\n${output}`);
          return output.includes('Raccolta worker running');
        },
        'the worker to start',
        60_000,
      );
      expect(output).toContain(`metrics at http://127.0.0.1:${port}/metrics`);
      let scrape = new Scrape('');
      await waitUntil(
        async () => {
          const res = await fetch(url);
          expect(res.status).toBe(200);
          scrape = new Scrape(await res.text());
          if (scrape.value('raccolta_jobs_run_total', { queue: 'mail.send' }) >= 1) return true;
          await sleep(50);
          return false;
        },
        'the mail job to be counted',
        30_000,
      );
      expect(scrape.value('raccolta_jobs_run_total', { queue: 'mail.send' })).toBe(1);
      expect(
        scrape.value('raccolta_jobs_failed_total', { queue: 'mail.send', final: 'true' }),
      ).toBe(0);
      expect(scrape.value('process_start_time_seconds')).toBeGreaterThan(0);
      // A worker answers no HTTP requests of its own: nothing to time.
      expect(scrape.named('raccolta_http_request_duration_seconds_count')).toEqual([]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});
