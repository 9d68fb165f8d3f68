// `npm test`: lint, formatting, typecheck, unit and API tests on SQLite, the API tests again on
// PostgreSQL when TEST_DATABASE_URL is set, the API tests under Node 24 (scripts/node24.mjs), the
// builds, the cluster test (nginx, two API nodes, two workers), and the e2e specs in Chromium; `npm test -- node24` runs the Node 24 step alone. Every
// step runs even when an earlier one fails; the last line is `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
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

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const res = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: res.status === 0, seconds };
}

/** A step without test cases counts as one check. */
function check(name, cmd, args, env) {
  if (only.length && !only.includes(name)) return;
  const { ok, seconds } = run(name, cmd, args, env);
  if (ok) passed++;
  else failed++;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds}s)`);
}

function vitestCounts(file) {
  if (!existsSync(file)) return null;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const failing = [];
  const retried = [];
  for (const f of r.testResults) {
    const where = path.relative(root, f.name);
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

function vitest(name, args, env) {
  if (only.length && !only.includes(name)) return;
  const out = path.join(reports, `${name}.json`);
  const { ok, seconds } = run(
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

/**
 * The API tests under Node 24 in a copy of the repository (scripts/node24.mjs), where SQLite goes
 * through node:sqlite instead of better-sqlite3 (apps/api/src/db/sqlite.ts).
 */
function node24() {
  const name = 'node24';
  if (only.length && !only.includes(name)) return;
  const out = path.join(reports, `${name}.json`);
  const { ok, seconds } = run(name, 'node', ['scripts/node24.mjs', out]);
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

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function chromiumPath() {
  const p = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(p) ? p : null;
}

check('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
// Formatting as `npm run format` writes it (Prettier; .prettierignore leaves out Markdown).
check('format', 'npx', ['prettier', '--check', '.']);
check('typecheck', 'npm', ['run', 'typecheck', '--silent']);
vitest('unit', []);

if (process.env.TEST_DATABASE_URL) {
  vitest('api-postgres', ['--project', 'api'], { RACCOLTA_TEST_DB: 'postgres' });
} else if (!only.length || only.includes('api-postgres')) {
  if (ci) {
    failed++;
    summary.push('FAIL api-postgres: TEST_DATABASE_URL is not set (required under CI=true)');
  } else {
    summary.push(
      'skip api-postgres: set TEST_DATABASE_URL=postgres://… to run the API tests on PostgreSQL',
    );
  }
}

node24();

check('build', 'node', ['scripts/build-if-needed.mjs', '--force']);

// Several nodes behind nginx on PostgreSQL and S3 (apps/api/cluster/, docs/deployment.md): the
// built API and worker processes, as their systemd units start them.
if (!only.length || only.includes('cluster')) {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].some((p) => existsSync(p));
  if (process.env.TEST_DATABASE_URL && nginx) {
    vitest('cluster', ['--config', 'apps/api/cluster/vitest.config.ts']);
  } else if (ci) {
    failed++;
    summary.push('FAIL cluster: needs TEST_DATABASE_URL and nginx (required under CI=true)');
  } else {
    summary.push(
      'skip cluster: set TEST_DATABASE_URL=postgres://… and install nginx (apt-get install -y nginx)',
    );
  }
}

if (!only.length || only.includes('e2e')) {
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
    // Four distinct free ports: the app, the SMTP capture, its mailbox endpoint, the OIDC provider.
    const ports = new Set();
    while (ports.size < 4) ports.add(await freePort());
    const [port, smtpPort, mailboxPort, oidcPort] = [...ports];
    const { ok, seconds } = run(
      'e2e',
      'npx',
      ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
      {
        CHROMIUM_PATH: chromium,
        E2E_PORT: String(port),
        E2E_SMTP_PORT: String(smtpPort),
        E2E_MAILBOX_PORT: String(mailboxPort),
        E2E_OIDC_PORT: String(oidcPort),
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      },
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

console.log(`\n${summary.join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
