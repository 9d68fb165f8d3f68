import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Clock } from '../context.js';
import { defineJob } from '../jobs/define-job.js';
import type { Schedule } from '../jobs/worker.js';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Deletes the .eml copies the console transport wrote before `now - maxAgeMs` (they hold
 * addresses and one-time links, so they do not stay for ever). Only `.eml` files directly in the
 * mail folder are touched; a folder that does not exist is nothing to purge. Returns how many went.
 */
export async function purgeMailCopies(dir: string, now: number, maxAgeMs: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let purged = 0;
  for (const name of names) {
    if (!name.endsWith('.eml')) continue;
    const file = path.join(dir, name);
    try {
      const info = await stat(file);
      if (!info.isFile() || info.mtimeMs > now - maxAgeMs) continue;
      await unlink(file);
      purged += 1;
    } catch (err) {
      // Gone in between (another worker's purge): nothing to do.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return purged;
}

export const purgeMailCopiesJob = defineJob({
  queue: 'mail.purge-copies',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async ({ config, clock }: { config: Config; clock: Clock }) => {
    await purgeMailCopies(config.mail.dir, clock(), config.mail.copyMaxAgeMs);
  },
});

/** Daily, for `worker.schedule(...)`. */
export const purgeMailCopiesSchedule: Schedule = {
  queue: purgeMailCopiesJob.queue,
  everyMs: DAY_MS,
  payload: {},
};
