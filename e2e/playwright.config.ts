import { defineConfig, devices } from '@playwright/test';

/**
 * The e2e specs run against the built app on its embedded defaults (SQLite, local disk, SMTP to a
 * capture server), started exactly as `npm start` starts it. Every worker starts its own app,
 * mailbox, OIDC provider and analytics stand-in on free ports with a fresh data folder
 * (support/servers.ts), so the workers' tests never share a database or the per-address rate
 * limits; the build is made once, before any worker starts (support/global-setup.ts).
 * Three workers: with two, a 2-core machine still had about 15% of its CPU idle while the specs
 * waited on the network and the pages' timers; three keep it busy (alone: 392 s, no retry).
 * E2E_WORKERS overrides the number of workers.
 */
const workers = Number(process.env.E2E_WORKERS ?? 3);

export default defineConfig({
  testDir: './specs',
  outputDir: './artifacts/test-output',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers,
  // Under CI a failing test runs once more; scripts/test.mjs names it in the summary.
  retries: process.env.CI === 'true' ? 1 : 0,
  timeout: 30_000,
  forbidOnly: process.env.CI === 'true',
  reporter: [['list'], ['json']],
  use: {
    // Recording a trace for every test (DOM snapshots and a screencast of each action) took about
    // 40% of the e2e CPU time: under CI a trace is recorded when a failed test runs again, and
    // locally (no retries) for every test, kept when it fails.
    trace: process.env.CI === 'true' ? 'on-first-retry' : 'retain-on-failure',
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
});
