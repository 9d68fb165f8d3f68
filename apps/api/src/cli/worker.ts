import { ConfigError, loadConfig } from '../config/config.js';
import { createContext, startWorker } from '../runtime.js';

/** `npm run worker`: a process that only runs background jobs (scale-out). */
try {
  const config = loadConfig();
  const ctx = await createContext(config);
  const running = await startWorker(ctx);
  ctx.logger.info({ concurrency: config.worker.concurrency }, 'worker started');
  console.log(
    `Raccolta worker running (concurrency ${config.worker.concurrency}); stop with Ctrl+C`,
  );
  const stop = (signal: string) => {
    ctx.logger.info({ signal }, 'worker stopping');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    running
      .stop()
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
