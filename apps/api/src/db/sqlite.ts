import { createRequire, isBuiltin } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * The SQLite driver, chosen per runtime: Node's own `node:sqlite` where it has what Kysely needs
 * (`StatementSync.prototype.columns`, so Node 24 here), better-sqlite3 elsewhere (Node 20).
 * better-sqlite3 12 aborts under Node 24 (its statements' destructor asserts on a missing
 * environment, see docs/architecture.md), and Node 20 has no `node:sqlite`. Both are loaded
 * lazily, so a runtime only ever loads the one it uses. `SQLITE_DRIVER` forces one.
 */
export type SqliteDriver = 'node' | 'better-sqlite3';
export type SqliteDriverChoice = 'auto' | SqliteDriver;

export interface OpenedSqlite {
  database: SqliteDatabase;
  driver: SqliteDriver;
}

// The few parts of `node:sqlite` used here: @types/node 20 does not declare the module.
interface NodeSqliteStatement {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  columns(): { name: string }[];
}
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (file: string) => NodeSqliteDatabase;
  StatementSync: { prototype: { columns?: unknown } };
}

const require = createRequire(import.meta.url);

const PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
];

/** Statements kept prepared; far more than the distinct queries the application runs. */
const STATEMENT_CACHE_SIZE = 500;

let nodeSqlite: NodeSqliteModule | null | undefined;

/** `node:sqlite` if this runtime has it with `StatementSync.columns()`, else null. */
function loadNodeSqlite(): NodeSqliteModule | null {
  if (nodeSqlite !== undefined) return nodeSqlite;
  nodeSqlite = null;
  // Node 20 has no such module; Node 22 before 22.13 has it behind a flag only.
  if (isBuiltin('node:sqlite')) {
    try {
      const m = require('node:sqlite') as NodeSqliteModule;
      if (typeof m.StatementSync.prototype.columns === 'function') nodeSqlite = m;
    } catch {
      // not available without a flag on this runtime
    }
  }
  return nodeSqlite;
}

/** The driver `choice` means on this runtime. */
export function resolveSqliteDriver(choice: SqliteDriverChoice = 'auto'): SqliteDriver {
  if (choice === 'auto') return loadNodeSqlite() ? 'node' : 'better-sqlite3';
  if (choice === 'node' && !loadNodeSqlite()) {
    throw new Error(
      `SQLITE_DRIVER=node: Node ${process.versions.node} has no node:sqlite with StatementSync.columns() (Node 24 has)`,
    );
  }
  return choice;
}

/** Opens (creating it if needed) the SQLite file with the pragmas the application relies on. */
export function openSqlite(file: string, choice: SqliteDriverChoice = 'auto'): OpenedSqlite {
  const driver = resolveSqliteDriver(choice);
  return {
    driver,
    database: driver === 'node' ? openWithNodeSqlite(file) : openWithBetterSqlite3(file),
  };
}

function openWithNodeSqlite(file: string): SqliteDatabase {
  const m = loadNodeSqlite();
  if (!m) throw new Error('node:sqlite is not available');
  const sqlite = new m.DatabaseSync(file);
  for (const pragma of PRAGMAS) sqlite.exec(`PRAGMA ${pragma}`);
  // Kysely passes the parameters as one array; node:sqlite takes them as arguments. Its rows
  // have a null prototype, which nothing here relies on (no BLOB column is read either, which
  // node:sqlite would give as a Uint8Array, not a Buffer).
  return withStatementCache(
    (sql): SqliteStatement => {
      const statement = sqlite.prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...parameters),
        run: (parameters) => statement.run(...parameters),
        iterate: (parameters) => statement.iterate(...parameters),
      };
    },
    () => sqlite.close(),
  );
}

function openWithBetterSqlite3(file: string): SqliteDatabase {
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const sqlite = new Database(file);
  for (const pragma of PRAGMAS) sqlite.pragma(pragma);
  return withStatementCache(
    (sql) => sqlite.prepare(sql),
    () => sqlite.close(),
  );
}

/**
 * Kysely prepares every query it runs; preparing costs more than running most of ours. The same
 * SQL text gets the same prepared statement back (least recently used ones are dropped). Safe
 * because both drivers run a statement to completion synchronously (`all`, `run`), so no two
 * uses of one statement overlap; only `iterate` (Kysely's `stream()`, unused here) could.
 */
function withStatementCache(
  prepare: (sql: string) => SqliteStatement,
  close: () => void,
): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      close();
    },
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = prepare(sql);
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
