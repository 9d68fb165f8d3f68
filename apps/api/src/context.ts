import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Db } from './db/create-db.js';
import type { Metrics } from './metrics/metrics.js';
import type { Storage } from './storage/storage.js';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

/** What every service gets: plain values, no container. */
export interface AppContext {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** This context's Prometheus registry and the instruments code moves (metrics/metrics.ts). */
  metrics: Metrics;
  checkDatabase: () => Promise<void>;
  /** Set when the process is stopping: readiness answers 503 so the proxy sends no more. */
  lifecycle: { draining: boolean };
}
