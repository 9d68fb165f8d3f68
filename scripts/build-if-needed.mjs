// Builds each workspace whose sources are newer than its build output, in dependency order.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

const targets = [
  {
    name: '@raccolta/contracts',
    dir: 'packages/contracts',
    sources: ['src', 'package.json', 'tsconfig.build.json'],
    output: 'dist/index.js',
  },
  {
    name: '@raccolta/api',
    dir: 'apps/api',
    sources: ['src', 'package.json', 'tsconfig.build.json', '../../packages/contracts/src'],
    output: 'dist/main.js',
  },
  {
    name: '@raccolta/web',
    dir: 'apps/web',
    sources: [
      'src',
      'public',
      'index.html',
      'vite.config.ts',
      'package.json',
      '../../packages/contracts/src',
    ],
    output: 'dist/index.html',
  },
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

export function buildIfNeeded({ force = false } = {}) {
  for (const t of targets) {
    const dir = path.join(root, t.dir);
    const output = path.join(dir, t.output);
    const built = existsSync(output) ? statSync(output).mtimeMs : 0;
    const changed = Math.max(...t.sources.map((s) => newestMtime(path.join(dir, s))));
    if (!force && built && built >= changed) continue;
    console.log(`Building ${t.name}…`);
    const res = spawnSync('npm', ['run', 'build', '-w', t.name, '--silent'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (res.status !== 0) throw new Error(`Build of ${t.name} failed`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildIfNeeded({ force: process.argv.includes('--force') });
}
