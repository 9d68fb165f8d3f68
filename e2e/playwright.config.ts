import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * The e2e specs run against the built app on its embedded defaults (SQLite, local disk, console
 * mail) in a fresh data folder, started exactly as `npm start` starts it.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'raccolta-e2e-'));
// Set once by the runner process; workers inherit these, so every process agrees on the ports.
process.env.E2E_SMTP_PORT ??= String(port + 1);
process.env.E2E_MAILBOX_PORT ??= String(port + 2);
process.env.E2E_OIDC_PORT ??= String(port + 3);
process.env.E2E_ANALYTICS_PORT ??= String(port + 4);
const analyticsOrigin = `http://127.0.0.1:${process.env.E2E_ANALYTICS_PORT}`;
const oidcIssuer = `http://127.0.0.1:${process.env.E2E_OIDC_PORT}`;
// The local provider's only client; the secret protects nothing outside this run.
const oidcClient = { id: 'raccolta-e2e', secret: 'e2e-oidc-client-secret' };
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  testDir: './specs',
  outputDir: './artifacts/test-output',
  fullyParallel: false,
  workers: 1,
  // Under CI a failing test runs once more; scripts/test.mjs names it in the summary.
  retries: process.env.CI === 'true' ? 1 : 0,
  timeout: 30_000,
  forbidOnly: process.env.CI === 'true',
  reporter: [['list'], ['json']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: 'node --conditions=source --import tsx e2e/support/mail-server.ts',
      cwd: root,
      url: `http://127.0.0.1:${process.env.E2E_MAILBOX_PORT}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        E2E_SMTP_PORT: process.env.E2E_SMTP_PORT,
        E2E_MAILBOX_PORT: process.env.E2E_MAILBOX_PORT,
      },
    },
    {
      command: 'node --conditions=source --import tsx e2e/support/oidc-provider.ts',
      cwd: root,
      // The port, not the discovery URL: the provider binds its port before it has a request
      // handler (it needs the port for its issuer), and a probe arriving in between is never
      // answered, which stalls the whole run. The app asks for discovery only at a sign-in.
      port: Number(process.env.E2E_OIDC_PORT),
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        E2E_OIDC_PORT: process.env.E2E_OIDC_PORT,
        E2E_OIDC_CLIENT_ID: oidcClient.id,
        E2E_OIDC_CLIENT_SECRET: oidcClient.secret,
        E2E_APP_URL: baseURL,
      },
    },
    {
      // The analytics service the app loads once a visitor accepts cookies (specs/consent.spec.ts).
      command: 'node --conditions=source --import tsx e2e/support/analytics-server.ts',
      cwd: root,
      url: `${analyticsOrigin}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { E2E_ANALYTICS_PORT: process.env.E2E_ANALYTICS_PORT },
    },
    {
      command: 'node scripts/start.mjs',
      cwd: root,
      url: `${baseURL}/api/status`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
      env: {
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATA_DIR: process.env.E2E_DATA_DIR,
        LOG_LEVEL: 'warn',
        JOB_POLL_MS: '200',
        // Small parts, so a collection of a few photos shows how a large download is split.
        DOWNLOAD_PART_MAX_BYTES: String(1024 * 1024),
        // The whole suite is one client address loading page after page and calling the API
        // thousands of times: the general per-address limit would end the run. Routes' own stricter limits still apply.
        RATE_LIMIT_MAX: '5000',
        MAIL_TRANSPORT: 'smtp',
        SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
        OIDC_GOOGLE_ISSUER: oidcIssuer,
        OIDC_GOOGLE_CLIENT_ID: oidcClient.id,
        OIDC_GOOGLE_CLIENT_SECRET: oidcClient.secret,
        OIDC_ALLOW_HTTP: 'true',
        // Loaded only after consent; the shared fixture starts every other spec declined.
        ANALYTICS_PROVIDER: 'plausible',
        ANALYTICS_SCRIPT_URL: `${analyticsOrigin}/js/script.js`,
      },
    },
  ],
});
