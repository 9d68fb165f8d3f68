import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir } from './testing/helpers.js';
import { runMemoryProbe } from './testing/run-memory-probe.js';

const GIB = 1024 ** 3;
const MB = 1024 ** 2;

let temp: Awaited<ReturnType<typeof makeTempDir>>;

beforeEach(async () => {
  temp = await makeTempDir();
});

afterEach(async () => {
  await temp.cleanup();
});

it('streams 1 GiB through put and get in under 150 MB of RSS', { timeout: 120_000 }, async () => {
  const report = await runMemoryProbe(
    [String(GIB), 'local', path.join(temp.dir, 'files')],
    110_000,
  );

  expect(report.put.size).toBe(GIB);
  expect(report.readBytes).toBe(GIB);
  expect(report.put.sha256).toBe(report.expectedSha256);
  expect(report.readSha256).toBe(report.expectedSha256);
  expect(report.peakRss / MB).toBeLessThan(150);
});
