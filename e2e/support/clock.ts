import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Moves this worker's server clock `ms` ahead of the real one (0: back in step). The app reads
 * the file at every tick (apps/api/src/test-clock.ts).
 */
export function setServerClockOffset(ms: number): void {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  writeFileSync(path.join(dir, 'clock-offset-ms'), String(ms));
}
