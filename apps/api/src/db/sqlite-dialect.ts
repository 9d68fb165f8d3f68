import {
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type QueryCompiler,
  SqliteDialect,
  type SqliteDatabase,
  SqliteDriver,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely's SQLite dialect, with one addition: a read can run at once, synchronously, when no one
 * holds the connection (`readNow`).
 *
 * Kysely runs every query through its executor, its connection provider and a mutex guarding
 * SQLite's single connection: about ten promise hops per query, and under load every release of
 * the mutex wakes every query waiting for it. A request of a list runs five to seven small reads,
 * so that path cost more than some of the reads themselves (docs/benchmarks.md, "Authenticated
 * lists under load"). A read run synchronously while the connection is free is exactly what
 * Kysely would have done (acquire, run, release) with nothing in between: no transaction is open
 * then (a transaction holds the connection from before its `begin` to after its `commit`), and
 * nothing else can run during a synchronous call.
 */
class SqliteDriverWithReads implements Driver {
  readonly #inner: SqliteDriver;
  readonly #database: SqliteDatabase;
  /** Someone (a transaction, a query on its way through Kysely) holds the connection. */
  #held = false;

  constructor(database: SqliteDatabase) {
    this.#database = database;
    this.#inner = new SqliteDriver({ database });
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    this.#held = true;
    return connection;
  }

  releaseConnection(_connection: DatabaseConnection): Promise<void> {
    this.#held = false;
    return this.#inner.releaseConnection();
  }

  beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#inner.savepoint(connection, name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#inner.rollbackToSavepoint(connection, name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.#inner.releaseSavepoint(connection, name, compile);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }

  /** The rows of a read, or null when the connection is held or the statement is not a read. */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | null {
    if (this.#held) return null;
    const statement = this.#database.prepare(sql);
    if (!statement.reader) return null;
    return statement.all(parameters);
  }
}

const drivers = new WeakMap<object, SqliteDriverWithReads>();

export class RaccoltaSqliteDialect extends SqliteDialect {
  readonly #driver: SqliteDriverWithReads;

  constructor(database: SqliteDatabase) {
    super({ database });
    this.#driver = new SqliteDriverWithReads(database);
  }

  override createDriver(): Driver {
    return this.#driver;
  }

  /** Lets `readNow` find this dialect's driver from the Kysely instance made with it. */
  register(db: Kysely<never>): void {
    drivers.set(db, this.#driver);
  }
}

/**
 * The rows of a compiled read run at once on `db`'s SQLite connection, or null when that is not
 * possible: `db` is not a database made with `RaccoltaSqliteDialect` (PostgreSQL, a transaction,
 * which must read through its own held connection), the connection is held, or the SQL does not
 * read. The caller then runs the query through Kysely.
 */
export function readNow(db: object, sql: string, parameters: readonly unknown[]): unknown[] | null {
  return drivers.get(db)?.readNow(sql, parameters) ?? null;
}
