import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';

const apiDir = path.resolve(import.meta.dirname, '../../..');
const probe = path.join(import.meta.dirname, 'memory-probe.ts');

const reportSchema = z.object({
  baselineRss: z.number(),
  peakRss: z.number(),
  expectedSha256: z.string(),
  put: z.object({ key: z.string(), size: z.number(), sha256: z.string() }),
  readBytes: z.number(),
  readSha256: z.string(),
  putMs: z.number(),
  totalMs: z.number(),
});

export type MemoryReport = z.infer<typeof reportSchema>;

/** Runs memory-probe.ts in a child process: `<bytes> local <dir>` or `<bytes> s3 <endpoint> <bucket>`. */
export async function runMemoryProbe(args: string[], timeoutMs: number): Promise<MemoryReport> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', probe, ...args],
    { cwd: apiDir, timeout: timeoutMs },
  );
  return reportSchema.parse(JSON.parse(stdout));
}
