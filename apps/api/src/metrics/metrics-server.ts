import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464 (the port chosen when METRICS_PORT=0). */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends open connections (a scrape under way is cut). */
  close(): Promise<void>;
}

/**
 * METRICS_PORT: a listener of its own that serves only `GET /metrics`, with no token, for a
 * scraper on a private network. The API process starts it beside its HTTP server; a worker
 * process (`npm run worker`), which has no other, starts it too, since its job counters live
 * there. Null when METRICS_PORT is not set.
 */
export async function startMetricsServer(
  metrics: Metrics,
  config: Config['metrics'],
  logger: Logger,
): Promise<MetricsServer | null> {
  const { port: wanted, host } = config;
  if (wanted === null) return null;
  const { registry } = metrics;
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (request.method !== 'GET') {
      response
        .writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET' })
        .end('Method not allowed\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        response
          .writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' })
          .end(text);
      },
      (err: unknown) => {
        logger.error({ err }, 'metrics: collecting failed');
        response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Failed\n');
      },
    );
  };
  const server = createServer(answer);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => logger.error({ err }, 'metrics listener failed'));
  const { address, family, port } = server.address() as AddressInfo;
  const url = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  logger.info({ url: `${url}/metrics` }, 'metrics listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive connections of the scraper would hold close() open until they time out.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
