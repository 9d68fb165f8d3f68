import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { z } from 'zod';
import { makeTempDir } from './testing/helpers.js';

const GIB = 1024 ** 3;
const MB = 1024 ** 2;
const apiDir = path.resolve(import.meta.dirname, '../..');
const probe = path.join(import.meta.dirname, 'testing', 'memory-probe.ts');

const reportSchema = z.object({
  peakRss: z.number(),
  expectedSha256: z.string(),
  put: z.object({ key: z.string(), size: z.number(), sha256: z.string() }),
  readBytes: z.number(),
  readSha256: z.string(),
  putMs: z.number(),
  totalMs: z.number(),
});

let temp: Awaited<ReturnType<typeof makeTempDir>>;

beforeEach(async () => {
  temp = await makeTempDir();
});

afterEach(async () => {
  await temp.cleanup();
});

it('streams 1 GiB through put and get in under 150 MB of RSS', { timeout: 120_000 }, async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', probe, path.join(temp.dir, 'files'), String(GIB)],
    { cwd: apiDir, timeout: 110_000 },
  );
  const report = reportSchema.parse(JSON.parse(stdout));

  expect(report.put.size).toBe(GIB);
  expect(report.readBytes).toBe(GIB);
  expect(report.put.sha256).toBe(report.expectedSha256);
  expect(report.readSha256).toBe(report.expectedSha256);
  expect(report.peakRss / MB).toBeLessThan(150);
});
