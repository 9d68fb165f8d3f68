import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds whatever is not built, once, before the workers start: each worker's app is started by
 * scripts/start.mjs, which would otherwise build in every worker at the same time.
 */
export default function globalSetup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const res = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (res.status !== 0) throw new Error(`scripts/build-if-needed.mjs exited with ${res.status}`);
}
