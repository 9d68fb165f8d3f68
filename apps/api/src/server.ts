import { buildApp, type App } from './app.js';
import type { Config } from './config/config.js';
import type { AppContext, Clock } from './context.js';
import { createContext, startWorker, type RunningWorker } from './runtime.js';

export interface Server {
  app: App;
  ctx: AppContext;
  /** The inline worker, when this process runs one. */
  worker: RunningWorker | null;
  close: () => Promise<void>;
}

export interface ServerOptions {
  clock?: Clock;
  /** Overrides config.worker.inline. */
  worker?: boolean;
}

/** The API process: context, the HTTP app and, unless WORKER=off, a worker inside. */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const ctx = await createContext(config, options.clock);
  const worker = (options.worker ?? config.worker.inline) ? await startWorker(ctx) : null;
  const app = await buildApp(ctx);
  let closed = false;
  return {
    app,
    ctx,
    worker,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await worker?.stop();
      await ctx.db.destroy();
    },
  };
}
