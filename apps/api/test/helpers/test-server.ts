import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createServer, type Server, type ServerOptions } from '../../src/server.js';
import { createTestDatabase } from './test-db.js';

export interface TestServer extends Server {
  config: Config;
  dataDir: string;
}

/**
 * The real app on a fresh database (SQLite file, or PostgreSQL under RACCOLTA_TEST_DB=postgres),
 * real storage in a temp folder. `env` overrides settings as the environment would.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: ServerOptions = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-api-'));
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    JOB_POLL_MS: '50',
    ...env,
  });
  config.database = database.config;
  const server = await createServer(config, { worker: false, ...options });
  return {
    ...server,
    config,
    dataDir,
    async close() {
      await server.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
