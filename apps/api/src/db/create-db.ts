import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/config.js';
import type { Database } from './database.js';

export type Db = Kysely<Database>;
export type DbKind = Config['database']['kind'];

/** Where pool errors are reported; a dropped idle connection must not crash the process. */
export interface DbLogger {
  error: (obj: object, msg: string) => void;
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
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(path.dirname(config.file), { recursive: true });
  const sqlite = new SQLite(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
}

/** Statements kept prepared; far more than the distinct queries the application runs. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; preparing costs more than running most of ours. The same
 * SQL text gets the same prepared statement back (least recently used ones are dropped). Safe
 * because better-sqlite3 runs a statement to completion synchronously (`all`, `run`), so no two
 * uses of one statement overlap; only `iterate` (Kysely's `stream()`, unused here) could.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}
