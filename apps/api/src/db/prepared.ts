import type { CompiledQuery, Compilable } from 'kysely';
import type { Db } from './create-db.js';

/**
 * Queries built with Kysely once and run many times. Building a query (its immutable tree, one
 * frozen node per call) and compiling it to SQL cost more than SQLite takes to run the small
 * queries of a request, and every request of a list ran the same few of them again
 * (docs/benchmarks.md, "Authenticated lists under load"). A prepared query is built and compiled
 * once per database with a placeholder for each argument; each run only puts the arguments in
 * the placeholders' places, so the SQL text (and, on SQLite, the prepared statement it maps to)
 * is the same every time.
 *
 * The builder must put each argument into the query as a value, untouched: a placeholder that a
 * builder transformed (escaped, lower-cased, concatenated) would not be found in the compiled
 * parameters, and that is refused when the query is first compiled, not run wrongly. An array
 * argument becomes one placeholder per element (`where id in (…)`); its length is part of the
 * query's shape, so each length is compiled once. `undefined` and booleans are not values but
 * shape too: the builder gets them as they are, to leave out a condition or pick a direction.
 */

/** What the builder receives for an argument: an opaque marker, or an array of them. */
export type Placeholder<T> = T extends readonly (infer E)[] ? E[] : T;

type Placeholders<A extends unknown[]> = { [K in keyof A]: Placeholder<A[K]> };

type Slot =
  | { kind: 'const'; value: unknown }
  | { kind: 'arg'; index: number; element: number }
  /** A parameter that is itself an array (PostgreSQL's `= any($1::text[])`), slot by slot. */
  | { kind: 'array'; items: Slot[] };

function slotOf(value: unknown): Slot {
  if (Array.isArray(value)) return { kind: 'array', items: value.map(slotOf) };
  const found = parseMarker(value);
  return found ? { kind: 'arg', ...found } : { kind: 'const', value };
}

function hasArg(slot: Slot, index: number, element: number): boolean {
  if (slot.kind === 'array') return slot.items.some((item) => hasArg(item, index, element));
  return slot.kind === 'arg' && slot.index === index && slot.element === element;
}

function fill(slot: Slot, args: readonly unknown[]): unknown {
  if (slot.kind === 'const') return slot.value;
  if (slot.kind === 'array') return slot.items.map((item) => fill(item, args));
  const arg: unknown = args[slot.index];
  return Array.isArray(arg) ? (arg[slot.element] as unknown) : arg;
}

interface Prepared<R> {
  compiled: CompiledQuery<R>;
  slots: Slot[];
}

/** An array longer than this is compiled for its run only, so odd lengths do not pile up. */
const MAX_CACHED_ELEMENTS = 100;

const MARK = '\u0000raccolta-placeholder:';

function marker(index: number, element: number): string {
  return `${MARK}${index}:${element}\u0000`;
}

function parseMarker(value: unknown): { index: number; element: number } | null {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return null;
  const [index, element] = value.slice(MARK.length, -1).split(':').map(Number);
  return { index: index ?? -1, element: element ?? -1 };
}

/** The arrays' lengths, or null when one is too long to keep its compiled query. */
/** Arguments given to the builder as they are: they decide the query's shape. */
const isShapeArg = (arg: unknown): arg is undefined | boolean =>
  arg === undefined || typeof arg === 'boolean';

function shapeOf(args: readonly unknown[]): string | null {
  let shape = '';
  for (const arg of args) {
    if (isShapeArg(arg)) shape += `${String(arg)},`;
    else if (!Array.isArray(arg)) shape += '-,';
    else if (arg.length > MAX_CACHED_ELEMENTS) return null;
    else shape += `${arg.length},`;
  }
  return shape;
}

/**
 * `const byId = preparedQuery((db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id))`,
 * then `await byId.all(db, userId)` or `await byId.first(db, userId)`.
 */
export function preparedQuery<A extends unknown[], R>(
  build: (db: Db, ...args: Placeholders<A>) => Compilable<R>,
) {
  // Per SQL dialect (a database and its transactions share their adapter).
  const cache = new WeakMap<object, Map<string, Prepared<R>>>();

  function prepare(db: Db, args: A): Prepared<R> {
    const dialect = db.getExecutor().adapter;
    let shapes = cache.get(dialect);
    if (!shapes) {
      shapes = new Map();
      cache.set(dialect, shapes);
    }
    const shape = shapeOf(args);
    let prepared = shape === null ? undefined : shapes.get(shape);
    if (prepared) return prepared;
    const markers = args.map((arg, index) =>
      isShapeArg(arg)
        ? arg
        : Array.isArray(arg)
          ? arg.map((_, element) => marker(index, element))
          : marker(index, 0),
    ) as Placeholders<A>;
    const compiled = build(db, ...markers).compile();
    const slots = compiled.parameters.map(slotOf);
    // Every argument (every element of an array) must have reached the parameters as given.
    args.forEach((arg, index) => {
      if (isShapeArg(arg)) return;
      const elements = Array.isArray(arg) ? arg.length : 1;
      for (let element = 0; element < elements; element++) {
        if (!slots.some((slot) => hasArg(slot, index, element)))
          throw new Error(
            `prepared query: argument ${index} did not reach the SQL parameters unchanged (${compiled.sql})`,
          );
      }
    });
    if (compiled.sql.includes(MARK))
      throw new Error(
        `prepared query: a placeholder was written into the SQL text (${compiled.sql})`,
      );
    prepared = { compiled, slots };
    if (shape !== null) shapes.set(shape, prepared);
    return prepared;
  }

  async function all(db: Db, ...args: A): Promise<R[]> {
    // A database with plugins (tests that look at the queries run) compiles each query through
    // them, with the arguments themselves, as a query built in place would.
    if (db.getExecutor().plugins.length > 0)
      return (await db.executeQuery(build(db, ...(args as Placeholders<A>)).compile())).rows;
    const { compiled, slots } = prepare(db, args);
    const parameters = slots.map((slot) => fill(slot, args));
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  }

  return {
    all,
    first: async (db: Db, ...args: A): Promise<R | undefined> => (await all(db, ...args))[0],
  };
}
