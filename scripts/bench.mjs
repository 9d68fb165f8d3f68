// `npm run bench`: runs apps/api/bench/run.ts from the TypeScript sources.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const res = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', 'apps/api/bench/run.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(res.status ?? 1);
