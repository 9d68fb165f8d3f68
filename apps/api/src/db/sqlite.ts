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
  /** Node 24 and later. */
  setReturnArrays?(enabled: boolean): void;
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

export interface SqliteOptions {
  /**
   * Rows read as arrays of values and made into objects by a function compiled once per
   * statement (`rowMaker`), instead of by the driver (default). The same objects, made about a
   * third faster: both drivers set each column of each row on a new object one by one from C++
   * (docs/benchmarks.md, "Authenticated lists under load"). Off, the driver makes its own rows.
   */
  arrayRows?: boolean;
}

/** Opens (creating it if needed) the SQLite file with the pragmas the application relies on. */
export function openSqlite(
  file: string,
  choice: SqliteDriverChoice = 'auto',
  { arrayRows = true }: SqliteOptions = {},
): OpenedSqlite {
  const driver = resolveSqliteDriver(choice);
  return {
    driver,
    database:
      driver === 'node'
        ? openWithNodeSqlite(file, arrayRows)
        : openWithBetterSqlite3(file, arrayRows),
  };
}

function openWithNodeSqlite(file: string, arrayRows: boolean): SqliteDatabase {
  const m = loadNodeSqlite();
  if (!m) throw new Error('node:sqlite is not available');
  const sqlite = new m.DatabaseSync(file);
  for (const pragma of PRAGMAS) sqlite.exec(`PRAGMA ${pragma}`);
  // Kysely passes the parameters as one array; node:sqlite takes them as arguments. Its own rows
  // (without setReturnArrays, before Node 24) have a null prototype, which nothing here relies on
  // (no BLOB column is read either, which node:sqlite would give as a Uint8Array, not a Buffer).
  return withStatementCache(
    (sql) => {
      const statement = sqlite.prepare(sql);
      const columns = statement.columns();
      const plain: SqliteStatement = {
        reader: columns.length > 0,
        all: (parameters) => statement.all(...parameters),
        run: (parameters) => statement.run(...parameters),
        iterate: (parameters) => statement.iterate(...parameters),
      };
      const toRow = arrayRows && statement.setReturnArrays ? rowMaker(columns) : null;
      if (!toRow) return plain;
      statement.setReturnArrays?.(true);
      return withRowsFromArrays(plain, toRow);
    },
    () => sqlite.close(),
  );
}

function openWithBetterSqlite3(file: string, arrayRows: boolean): SqliteDatabase {
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const sqlite = new Database(file);
  for (const pragma of PRAGMAS) sqlite.pragma(pragma);
  return withStatementCache(
    (sql) => {
      const statement = sqlite.prepare(sql);
      const toRow = arrayRows && statement.reader ? rowMaker(statement.columns()) : null;
      if (!toRow) return statement;
      statement.raw(true);
      return withRowsFromArrays(statement, toRow);
    },
    () => sqlite.close(),
  );
}

type RowMaker = (values: unknown[]) => unknown;

/**
 * A function making a statement's row object from its values: one object literal naming every
 * column, so V8 gives all rows of a statement one shape at once. Null (the driver makes the rows)
 * when a column is named `__proto__`, which a literal would take for the prototype. A name that
 * occurs twice keeps its first place and its last value, as the drivers' rows do.
 */
export function rowMaker(columns: readonly { name: string }[]): RowMaker | null {
  if (columns.length === 0 || columns.some((c) => c.name === '__proto__')) return null;
  const properties = columns.map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`).join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- column names quoted as JSON strings
  return new Function('v', `return { ${properties} };`) as RowMaker;
}

/** A statement that reads arrays of values (raw, setReturnArrays), giving rows made by `toRow`. */
function withRowsFromArrays(statement: SqliteStatement, toRow: RowMaker): SqliteStatement {
  return {
    reader: true,
    all: (parameters) => {
      const values = statement.all(parameters) as unknown[][];
      const rows = new Array<unknown>(values.length);
      for (let i = 0; i < values.length; i++) rows[i] = toRow(values[i] as unknown[]);
      return rows;
    },
    run: (parameters) => statement.run(parameters),
    iterate: function* (parameters) {
      for (const values of statement.iterate(parameters)) yield toRow(values as unknown[]);
    },
  };
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
