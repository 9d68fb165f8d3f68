// `npm start`: build whatever is not built, then serve the web app and the API on one port.
// `npm run worker`: run background workers only (scale-out). `npm run migrate`: migrations only.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'node_modules'))) {
  console.error('Dependencies are not installed: run `npm ci` first.');
  process.exit(1);
}

buildIfNeeded();

const modes = {
  '--worker': 'dist/cli/worker.js',
  '--migrate': 'dist/cli/migrate.js',
  '--admin': 'dist/cli/admin.js',
};
const mode = Object.keys(modes).find((m) => process.argv.includes(m));
const entry = mode ? modes[mode] : 'dist/main.js';
// `npm run admin -- grant-scope a@b.c`: everything after the mode flag goes to the command.
const passThrough = mode ? process.argv.slice(process.argv.indexOf(mode) + 1) : [];
const child = spawn(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'apps/api', entry), ...passThrough],
  {
    cwd: root,
    stdio: 'inherit',
    // Two malloc arenas, as the systemd units set: see deploy/systemd.
    env: { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2', ...process.env },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
