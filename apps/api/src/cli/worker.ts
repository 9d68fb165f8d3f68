import { ConfigError, loadConfig } from '../config/config.js';
import { startMetricsServer } from '../metrics/metrics-server.js';
import { createContext, startWorker } from '../runtime.js';

/** `npm run worker`: a process that only runs background jobs (scale-out). */
try {
  const config = loadConfig();
  const ctx = await createContext(config);
  // The worker's job counters are scraped here (METRICS_PORT): it has no other HTTP server.
  const metricsServer = await startMetricsServer(ctx.metrics, config.metrics, ctx.logger);
  const running = await startWorker(ctx);
  ctx.logger.info({ concurrency: config.worker.concurrency }, 'worker started');
  const metrics = metricsServer ? `; metrics at ${metricsServer.url}/metrics` : '';
  console.log(
    `Raccolta worker running (concurrency ${config.worker.concurrency})${metrics}; stop with Ctrl+C`,
  );
  const stop = (signal: string) => {
    ctx.logger.info({ signal }, 'worker stopping');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    running
      .stop()
      .then(() => metricsServer?.close())
      .then(() => ctx.db.destroy())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          ctx.logger.error({ err }, 'worker stop failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
