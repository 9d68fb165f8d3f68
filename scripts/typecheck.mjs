// `npm run typecheck`: every TypeScript project, each checked even when one before it has errors,
// so the errors of one project never hide those of the next. Fails if any project has errors.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['tsconfig.json', 'packages/contracts', 'apps/api', 'apps/web', 'e2e'];
const failed = projects.filter(
  (project) =>
    spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { stdio: 'inherit' }).status !==
    0,
);
if (failed.length > 0) {
  console.error(`typecheck: errors in ${failed.join(', ')}`);
  process.exit(1);
}
