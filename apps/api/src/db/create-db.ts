import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/config.js';
import type { Database } from './database.js';
import { openSqlite } from './sqlite.js';

export type Db = Kysely<Database>;
export type DbKind = Config['database']['kind'];

/** Where pool errors are reported; a dropped idle connection must not crash the process. */
export interface DbLogger {
  error: (obj: object, msg: string) => void;
}

/** What a PostgreSQL pool holds at a moment (pg.Pool's counts). */
export interface PoolStats {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection, the pool being full. */
  waiting: number;
  max: number;
}

const pools = new WeakMap<Db, pg.Pool>();

/** The pool's counts on PostgreSQL; null on SQLite (one connection, no pool). */
export function poolStats(db: Db): PoolStats | null {
  const pool = pools.get(db);
  if (!pool) return null;
  return {
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max,
  };
}

export function createDb(config: Config['database'], logger?: DbLogger): Db {
  if (config.kind === 'postgres') {
    // Timestamps are epoch milliseconds in bigint columns; they fit a JS number exactly.
    const types = new pg.TypeOverrides();
    types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));
    const pool = new pg.Pool({
      connectionString: config.url,
      max: config.poolSize,
      types,
    });
    pool.on('error', (err) => {
      logger?.error({ err }, 'idle database connection failed');
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return db;
  }
  mkdirSync(path.dirname(config.file), { recursive: true });
  const { database } = openSqlite(config.file, config.driver);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}
