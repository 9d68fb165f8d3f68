import { ConfigError, loadConfig } from './config/config.js';
import { createServer } from './server.js';
import { serverClock } from './test-clock.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await createServer(config, { clock: serverClock(config) });
  const address = await server.app.listen({ host: config.host, port: config.port });
  const shown = config.publicUrl.includes(`:${config.port}`) ? config.publicUrl : address;
  const metrics = server.metricsServer ? `\n  Metrics: ${server.metricsServer.url}/metrics` : '';
  console.log(
    `\n  Raccolta is running: open ${shown}\n  API docs: ${config.apiPublicUrl}/docs${metrics}\n`,
  );

  const stop = (signal: string) => {
    const graceMs = config.shutdownGraceMs;
    server.ctx.logger.info({ signal, graceMs }, 'draining: finishing the requests in flight');
    // Past the grace period and the worker's own stop, the process goes whatever still hangs.
    const force = setTimeout(() => process.exit(1), graceMs + 30_000);
    force.unref();
    server.drain(graceMs).then(
      () => process.exit(0),
      (err: unknown) => {
        server.ctx.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
