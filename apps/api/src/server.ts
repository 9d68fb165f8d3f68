import { sql } from 'kysely';
import { pino } from 'pino';
import { buildApp, type App } from './app.js';
import type { Config } from './config/config.js';
import type { AppContext, Clock } from './context.js';
import { createDb } from './db/create-db.js';
import { migrateToLatest } from './db/migrate.js';
import { createLocalStorage } from './storage/local-storage.js';

export interface Server {
  app: App;
  ctx: AppContext;
  close: () => Promise<void>;
}

export interface ServerOptions {
  clock?: Clock;
  /** Overrides config.worker.inline (tests that drive the worker themselves). */
  worker?: boolean;
}

/** Everything the process runs: database (migrated), storage, the HTTP app and the inline worker. */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const logger = pino({ level: config.logLevel, redact: ['req.headers.authorization'] });
  const db = createDb(config.database);
  await migrateToLatest(db);
  const clock = options.clock ?? Date.now;
  const storage = createLocalStorage({
    root: config.storage.root,
    signingSecret: config.secret,
    publicBaseUrl: config.apiPublicUrl,
    clock: () => new Date(clock()),
  });
  const ctx: AppContext = {
    config,
    db,
    storage,
    clock,
    logger,
    checkDatabase: async () => {
      await sql`select 1`.execute(db);
    },
  };
  const app = await buildApp(ctx);
  let closed = false;
  return {
    app,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await db.destroy();
    },
  };
}
