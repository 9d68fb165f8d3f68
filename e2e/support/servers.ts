import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';

/**
 * The servers one Playwright worker runs its tests against: the built app, started exactly as
 * `npm start` starts it on its embedded defaults (SQLite, local disk) in a fresh data folder, and
 * beside it the SMTP capture with its mailbox endpoint, the OIDC provider and the analytics
 * stand-in. Every worker has its own set on its own ports, so two workers never share a
 * database, a mailbox or the app's per-address rate limits (every request comes from 127.0.0.1).
 */
export interface E2eServers {
  baseURL: string;
  dataDir: string;
  mailboxPort: number;
  analyticsPort: number;
}

const root = path.resolve(import.meta.dirname, '../..');
// The local provider's only client; the secret protects nothing outside this run.
const oidcClient = { id: 'raccolta-e2e', secret: 'e2e-oidc-client-secret' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Five distinct free ports. */
async function freePorts(): Promise<[number, number, number, number, number]> {
  const ports = new Set<number>();
  while (ports.size < 5) ports.add(await freePort());
  const [a = 0, b = 0, c = 0, d = 0, e = 0] = ports;
  return [a, b, c, d, e];
}

interface Started {
  name: string;
  child: ChildProcess;
  output: string[];
}

/** Starts `args` under Node with `env` on top of the worker's; keeps its last lines of output. */
function start(name: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { name, child, output };
}

/** Waits until `check` succeeds, failing early with the process's output if it exits. */
async function waitFor(server: Started, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`${server.name} exited early:\n${server.output.join('')}`);
    }
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name} did not start in ${timeoutMs} ms:\n${server.output.join('')}`);
}

const answers = (url: string) => async () => (await fetch(url)).ok;

/** The port accepts connections (the OIDC provider binds it before it can answer a request). */
const listening = (port: number) => () =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });

async function stop(servers: Started[]) {
  await Promise.all(
    servers.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

async function startServers(
  appHost: string,
): Promise<{ servers: E2eServers; stop: () => Promise<void> }> {
  const [port, smtpPort, mailboxPort, oidcPort, analyticsPort] = await freePorts();
  // The app listens on 127.0.0.1 whatever name it is reached by.
  const baseURL = `http://${appHost}:${port}`;
  const analyticsOrigin = `http://127.0.0.1:${analyticsPort}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-e2e-'));
  const tsx = ['--conditions=source', '--import', 'tsx'];
  const started: Started[] = [];
  try {
    const mail = start('mail server', [...tsx, 'e2e/support/mail-server.ts'], {
      E2E_SMTP_PORT: String(smtpPort),
      E2E_MAILBOX_PORT: String(mailboxPort),
    });
    started.push(mail);
    const oidc = start('OIDC provider', [...tsx, 'e2e/support/oidc-provider.ts'], {
      E2E_OIDC_PORT: String(oidcPort),
      E2E_OIDC_CLIENT_ID: oidcClient.id,
      E2E_OIDC_CLIENT_SECRET: oidcClient.secret,
      E2E_APP_URL: baseURL,
    });
    started.push(oidc);
    // The analytics service the app loads once a visitor accepts cookies (specs/consent.spec.ts).
    const analytics = start('analytics server', [...tsx, 'e2e/support/analytics-server.ts'], {
      E2E_ANALYTICS_PORT: String(analyticsPort),
    });
    started.push(analytics);
    const app = start('app', ['scripts/start.mjs'], {
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JOB_POLL_MS: '200',
      // The clock specs move (apps/api/src/test-clock.ts; e2e/support/clock.ts): read only
      // under NODE_ENV=test, which otherwise only checks responses against their schemas.
      NODE_ENV: 'test',
      TEST_CLOCK_FILE: path.join(dataDir, 'clock-offset-ms'),
      // Small parts, so a collection of a few photos shows how a large download is split.
      DOWNLOAD_PART_MAX_BYTES: String(1024 * 1024),
      // One worker's specs are one client address loading page after page and calling the API
      // thousands of times: the general per-address limit would end the run. Routes' own
      // stricter limits (sign-in, sign-up, mail) still apply, per worker.
      RATE_LIMIT_MAX: '5000',
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OIDC_GOOGLE_ISSUER: `http://127.0.0.1:${oidcPort}`,
      OIDC_GOOGLE_CLIENT_ID: oidcClient.id,
      OIDC_GOOGLE_CLIENT_SECRET: oidcClient.secret,
      OIDC_ALLOW_HTTP: 'true',
      // Loaded only after consent; the shared fixture starts every other spec declined.
      ANALYTICS_PROVIDER: 'plausible',
      ANALYTICS_SCRIPT_URL: `${analyticsOrigin}/js/script.js`,
    });
    started.push(app);
    await Promise.all([
      waitFor(mail, answers(`http://127.0.0.1:${mailboxPort}/health`), 60_000),
      // The port, not the discovery URL: the provider binds its port before it has a request
      // handler (it needs the port for its issuer), and a request arriving in between is never
      // answered. The app asks for discovery only at a sign-in.
      waitFor(oidc, listening(oidcPort), 60_000),
      waitFor(analytics, answers(`${analyticsOrigin}/health`), 60_000),
      waitFor(app, answers(`${baseURL}/api/status`), 120_000),
    ]);
  } catch (error) {
    await stop(started);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    servers: { baseURL, dataDir, mailboxPort, analyticsPort },
    stop: async () => {
      await stop(started);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Playwright's test with this worker's servers: `baseURL` (so `page`, `request` and every
 * context a spec opens) points at the worker's own app. The support modules that reach the
 * mailbox and the analytics stand-in read their ports from this worker's environment.
 */
export const test = base.extend<object, { e2eServers: E2eServers; appHost: string }>({
  /**
   * The name the app is reached by, in the browser and in its PUBLIC_URL. 127.0.0.1 for most
   * specs; a spec that needs a site name (WebAuthn refuses a numeric address) asks for
   * `localhost` with `test.use({ appHost: 'localhost' })`, and gets a worker and servers of its
   * own.
   */
  appHost: ['127.0.0.1', { scope: 'worker', option: true }],
  e2eServers: [
    async ({ appHost }, use) => {
      const { servers, stop: stopServers } = await startServers(appHost);
      process.env.E2E_MAILBOX_PORT = String(servers.mailboxPort);
      process.env.E2E_ANALYTICS_PORT = String(servers.analyticsPort);
      process.env.E2E_DATA_DIR = servers.dataDir;
      try {
        await use(servers);
      } finally {
        await stopServers();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ e2eServers }, use) => {
    await use(e2eServers.baseURL);
  },
});

export { expect };
