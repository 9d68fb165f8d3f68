import { buildApp, type App } from './app.js';
import type { Config } from './config/config.js';
import type { AppContext, Clock } from './context.js';
import { startMetricsServer, type MetricsServer } from './metrics/metrics-server.js';
import { createContext, startWorker, type RunningWorker } from './runtime.js';

export interface Server {
  app: App;
  ctx: AppContext;
  /** The inline worker, when this process runs one. */
  worker: RunningWorker | null;
  /** The METRICS_PORT listener, when it is set. */
  metricsServer: MetricsServer | null;
  close: () => Promise<void>;
  /**
   * Stops the way a node behind a proxy must (SIGTERM): readiness answers 503 at once, the port
   * stops accepting connections, requests in flight have `graceMs` to finish, then whatever still
   * runs is cut (a tus upload keeps the bytes it stored and resumes on another node), the worker
   * stops and the database closes.
   */
  drain: (graceMs: number) => Promise<void>;
}

export interface ServerOptions {
  clock?: Clock;
  /** Overrides config.worker.inline. */
  worker?: boolean;
}

/**
 * The API process: context, the HTTP app, the metrics listener (METRICS_PORT) and, unless
 * WORKER=off, a worker inside.
 */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const ctx = await createContext(config, options.clock);
  // First: a port already taken stops the start before anything else runs.
  const metricsServer = await startMetricsServer(ctx.metrics, config.metrics, ctx.logger).catch(
    async (err: unknown) => {
      await ctx.db.destroy();
      throw err;
    },
  );
  const worker = (options.worker ?? config.worker.inline) ? await startWorker(ctx) : null;
  const app = await buildApp(ctx);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
    await worker?.stop();
    await metricsServer?.close();
    await ctx.db.destroy();
  };
  return {
    app,
    ctx,
    worker,
    metricsServer,
    close,
    async drain(graceMs) {
      ctx.lifecycle.draining = true;
      const cut = setTimeout(() => {
        ctx.logger.warn({ graceMs }, 'grace period over: cutting the requests still running');
        app.server.closeAllConnections();
      }, graceMs);
      try {
        await close();
      } finally {
        clearTimeout(cut);
      }
    },
  };
}
