import { readFileSync } from 'node:fs';
import type { Config } from './config/config.js';
import type { Clock } from './jobs/types.js';

/**
 * The server's clock. Only under NODE_ENV=test, and only when TEST_CLOCK_FILE names a file, the
 * clock runs ahead of the real one by the milliseconds that file holds (read at every tick, so a
 * test moves time without a restart: the e2e specs of deadline reminders). Anything else, or a
 * missing or unreadable file, is the real clock.
 */
export function serverClock(
  config: Pick<Config, 'env'>,
  env: NodeJS.ProcessEnv = process.env,
): Clock {
  const file = env.TEST_CLOCK_FILE;
  if (config.env !== 'test' || !file) return Date.now;
  return () => {
    let offset = 0;
    try {
      offset = Number(readFileSync(file, 'utf8').trim()) || 0;
    } catch {
      offset = 0;
    }
    return Date.now() + offset;
  };
}
