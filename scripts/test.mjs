// `npm test`, in three phases that each keep the machine's two cores busy: lint, typecheck,
// formatting and the builds side by side; the unit tests of every project with the API tests on
// SQLite under the machine's Node (`unit`) beside the API tests on PostgreSQL under Node 24
// (`node24`, scripts/node24.mjs; needs TEST_DATABASE_URL; Node 24 and its copy of the repository
// are installed from the start, or before `npm ci` by .ci/run); then the cluster test (nginx, two
// API nodes, two workers) beside the e2e specs in Chromium, each Playwright worker against its own
// app. `npm test -- node24` runs one step (`lint`, `format`, `typecheck`, `build`, `unit`,
// `node24`, `cluster`, `e2e`). Every step runs even when an earlier one fails; a step's output is
// printed whole when it ends, each has a summary line, and the last line is `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const ci = process.env.CI === 'true';
const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`

let passed = 0;
let failed = 0;
let skipped = 0;
const summary = [];

/**
 * Runs a step with its output held, printed whole once it ends, so steps running side by side do
 * not interleave their lines.
 */
function held(name, cmd, args, env = {}) {
  console.log(`=== ${name} started`);
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n=== ${name}: ${cmd} ${args.join(' ')} (${seconds}s)`);
      process.stdout.write(Buffer.concat(output));
      resolve({ ok: code === 0, seconds });
    });
  });
}

/** Steps without test cases, side by side, each counting as one check. */
async function together(steps) {
  const chosen = steps.filter(([name]) => !only.length || only.includes(name));
  const results = await Promise.all(
    chosen.map(async ([name, cmd, args]) => ({ name, ...(await held(name, cmd, args)) })),
  );
  for (const { name, ok, seconds } of results) {
    if (ok) passed++;
    else failed++;
    summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds}s)`);
  }
}

/**
 * ESLint's cache, in a folder named after everything a result depends on: the linted files'
 * contents, the configuration and the installed packages. The rules use type information, so a
 * file's result can change when a file it imports changes; a cache per whole tree (sources, the
 * configuration, package-lock.json) never serves such a stale result. It saves the whole lint when
 * nothing linted changed since the last `npm test` (a rerun after a later step failed, a change
 * to Markdown only); `npm ci` empties it, so a fresh CI checkout lints everything.
 */
function eslintCacheArgs() {
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (files.status !== 0) return [];
  const hash = createHash('sha256');
  const linted = /\.(?:[cm]?[jt]sx?|json)$/;
  for (const file of files.stdout
    .split('\0')
    .filter((f) => linted.test(f))
    .sort()) {
    const full = path.join(root, file);
    if (!existsSync(full)) continue; // deleted in the working tree
    hash.update(`${file}\0`).update(readFileSync(full)).update('\0');
  }
  const key = hash.digest('hex').slice(0, 16);
  const folder = path.join(root, 'node_modules', '.cache', 'eslint');
  // Only the newest tree's cache is kept.
  if (existsSync(folder)) {
    for (const entry of readdirSync(folder)) {
      if (entry !== key) rmSync(path.join(folder, entry), { recursive: true, force: true });
    }
  }
  return ['--cache', '--cache-strategy', 'content', '--cache-location', path.join(folder, key)];
}

function vitestCounts(file) {
  if (!existsSync(file)) return null;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const failing = [];
  const retried = [];
  for (const f of r.testResults) {
    // node24's tests run in a copy of the repository (/tmp/raccolta-node24-…/repo/): named as here.
    const relative = path.relative(root, f.name);
    const where = relative.startsWith('..')
      ? (/[\\/]repo[\\/](.*)$/.exec(f.name)?.[1] ?? relative)
      : relative;
    if (f.status === 'failed' && f.message) failing.push(`${where}: ${f.message.split('\n')[0]}`);
    for (const a of f.assertionResults) {
      if (a.status === 'failed') failing.push(`${where} > ${a.fullName}`);
      // A test that passed with errors recorded passed on a retry.
      else if (a.status === 'passed' && a.failureMessages.length)
        retried.push(`${where} > ${a.fullName}`);
    }
  }
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
    failing,
    retried,
  };
}

/** Names the failing and the retried tests under a step's summary line. */
function listTests(failing, retried) {
  for (const t of failing.slice(0, 20)) summary.push(`       failed: ${t}`);
  if (failing.length > 20) summary.push(`       … and ${failing.length - 20} more`);
  for (const t of retried.slice(0, 20)) summary.push(`       passed on retry: ${t}`);
}

async function vitest(name, args, env) {
  if (only.length && !only.includes(name)) return;
  const out = path.join(reports, `${name}.json`);
  const { ok, seconds } = await held(
    name,
    'npx',
    [
      'vitest',
      'run',
      ...args,
      // Under CI a test failing once is run once more; a retried test is named in the summary.
      ...(ci ? ['--retry=1'] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    env,
  );
  countVitest(name, out, ok, seconds);
}

const node24Selected = !only.length || only.includes('node24');
/**
 * Node 24 and the repository's copy for the `node24` step, installed from the start beside the
 * steps before it (scripts/node24.mjs prepare): mostly waiting on the registry and the disk.
 * Its output is held and printed when the step begins.
 */
const node24Preparation = (() => {
  if (!node24Selected || !process.env.TEST_DATABASE_URL) return null;
  const preparing = process.env.RACCOLTA_NODE24_PREPARING;
  if (preparing) return preparedElsewhere(preparing);
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-node24-'));
  const started = Date.now();
  const child = spawn('node', ['scripts/node24.mjs', 'prepare', dir], {
    cwd: root,
    env: process.env,
  });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const done = new Promise((resolve) => {
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
  return { dir, started, output, done };
})();

/**
 * A preparation `.ci/run` started before its own `npm ci` (RACCOLTA_NODE24_PREPARING=DIR): it
 * writes its output to DIR.log and its exit status to DIR.exit when it ends.
 */
function preparedElsewhere(dir) {
  const started = Date.now();
  const output = [];
  const done = new Promise((resolve) => {
    const poll = () => {
      if (!existsSync(`${dir}.exit`)) {
        setTimeout(poll, 500);
        return;
      }
      if (existsSync(`${dir}.log`)) output.push(readFileSync(`${dir}.log`));
      const status = readFileSync(`${dir}.exit`, 'utf8').trim();
      resolve(/^\d+$/.test(status) ? Number(status) : 1);
    };
    poll();
  });
  return { dir, started, output, done };
}

/** The API tests on PostgreSQL under Node 24 in a copy of the repository (scripts/node24.mjs). */
async function node24() {
  const name = 'node24';
  if (!node24Preparation) return;
  const waitStarted = Date.now();
  const code = await node24Preparation.done;
  console.log(
    `\n=== node24 preparation (${process.env.RACCOLTA_NODE24_PREPARING ? 'began before npm ci' : 'began with the run'}, waited ${((Date.now() - waitStarted) / 1000).toFixed(1)}s)`,
  );
  process.stdout.write(Buffer.concat(node24Preparation.output));
  const prepared = ((Date.now() - node24Preparation.started) / 1000).toFixed(1);
  if (code !== 0) {
    failed++;
    summary.push(`FAIL ${name}: Node 24 preparation failed (${prepared}s)`);
    rmSync(node24Preparation.dir, { recursive: true, force: true });
    return;
  }
  const out = path.join(reports, `${name}.json`);
  const { ok, seconds } = await held(name, 'node', [
    'scripts/node24.mjs',
    'test',
    node24Preparation.dir,
    out,
  ]);
  countVitest(name, out, ok, seconds);
}

function countVitest(name, out, ok, seconds) {
  const c = vitestCounts(out);
  if (!c) {
    failed++;
    summary.push(`FAIL ${name}: no report (${seconds}s)`);
    return;
  }
  // A run that failed without a failing test (a crashed file, an unhandled error) still fails.
  const extra = !ok && c.failed === 0 ? 1 : 0;
  passed += c.passed;
  failed += c.failed + extra;
  skipped += c.skipped;
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} ${name}: ${c.passed} passed, ${c.failed + extra} failed, ${c.skipped} skipped (${seconds}s)`,
  );
  listTests(c.failing, c.retried);
}

function chromiumPath() {
  const p = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(p) ? p : null;
}

// The steps run in three phases, each filling the machine's two cores: what only reads the sources
// (lint, typecheck, formatting) with the builds; the API and unit tests on both databases; the
// cluster test beside the e2e specs. Most API and cluster tests wait on the disk, PostgreSQL and
// the processes they start, so two such steps side by side take little longer than one
// (docs/architecture.md, "Tests").
const linting = !only.length || only.includes('lint');
await together([
  ['lint', 'npx', ['eslint', '.', '--max-warnings', '0', ...(linting ? eslintCacheArgs() : [])]],
  ['typecheck', 'npm', ['run', 'typecheck', '--silent']],
  // Formatting as `npm run format` writes it (Prettier; .prettierignore leaves out Markdown).
  ['format', 'npx', ['prettier', '--check', '.']],
  // The builds, for the cluster and e2e steps: nothing before those reads them (the tests and the
  // type checks take the sources; lint and formatting leave out dist/).
  ['build', 'node', ['scripts/build-if-needed.mjs', '--force']],
]);

/** The API tests on PostgreSQL under Node 24, or why they cannot run. */
async function node24Step() {
  if (process.env.TEST_DATABASE_URL) {
    await node24();
  } else if (node24Selected) {
    if (ci) {
      failed++;
      summary.push('FAIL node24: TEST_DATABASE_URL is not set (required under CI=true)');
    } else {
      summary.push(
        'skip node24: set TEST_DATABASE_URL=postgres://… to run the API tests on PostgreSQL under Node 24',
      );
    }
  }
}

// Every project, with the API tests on SQLite under the machine's Node, beside the API tests on
// PostgreSQL under Node 24.
await Promise.all([vitest('unit', []), node24Step()]);

// Several nodes behind nginx on PostgreSQL and S3 (apps/api/cluster/, docs/deployment.md): the
// built API and worker processes, as their systemd units start them.
async function clusterStep() {
  if (only.length && !only.includes('cluster')) return;
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].some((p) => existsSync(p));
  if (process.env.TEST_DATABASE_URL && nginx) {
    await vitest('cluster', ['--config', 'apps/api/cluster/vitest.config.ts']);
  } else if (ci) {
    failed++;
    summary.push('FAIL cluster: needs TEST_DATABASE_URL and nginx (required under CI=true)');
  } else {
    summary.push(
      'skip cluster: set TEST_DATABASE_URL=postgres://… and install nginx (apt-get install -y nginx)',
    );
  }
}

async function e2eStep() {
  if (only.length && !only.includes('e2e')) return;
  const chromium = chromiumPath();
  if (!chromium) {
    if (ci) {
      failed++;
      summary.push('FAIL e2e: Chromium not found (CHROMIUM_PATH or /usr/bin/chromium)');
    } else {
      summary.push(
        'skip e2e: Chromium not found; install it (apt-get install -y chromium) or set CHROMIUM_PATH',
      );
    }
  } else {
    const out = path.join(reports, 'e2e.json');
    // Every Playwright worker starts its own app and helpers on free ports (e2e/support/servers.ts).
    const { ok, seconds } = await held(
      'e2e',
      'npx',
      ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
      { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
    );
    if (existsSync(out)) {
      const report = JSON.parse(readFileSync(out, 'utf8'));
      const s = report.stats;
      const extra = !ok && s.unexpected === 0 ? 1 : 0;
      passed += s.expected + s.flaky;
      failed += s.unexpected + extra;
      skipped += s.skipped;
      summary.push(
        `${ok ? 'ok  ' : 'FAIL'} e2e: ${s.expected + s.flaky} passed, ${s.unexpected + extra} failed, ${s.skipped} skipped (${seconds}s)`,
      );
      const failing = [];
      const retried = [];
      const walk = (suite, titles) => {
        for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
        for (const spec of suite.specs ?? []) {
          const name = [...titles, spec.title].filter(Boolean).join(' > ');
          for (const t of spec.tests ?? []) {
            if (t.status === 'unexpected') failing.push(name);
            else if (t.status === 'flaky') retried.push(name);
          }
        }
      };
      for (const suite of report.suites ?? []) walk(suite, [suite.title]);
      listTests(failing, retried);
    } else {
      failed++;
      summary.push(`FAIL e2e: no report (${seconds}s)`);
    }
  }
}

await Promise.all([clusterStep(), e2eStep()]);

console.log(`\n${summary.join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
