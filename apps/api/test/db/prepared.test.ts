import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/create-db.js';
import { newId } from '../../src/db/ids.js';
import { preparedQuery } from '../../src/db/prepared.js';
import { openTestDb } from '../helpers/test-db.js';

describe('prepared queries', () => {
  let db: Db;
  let close: () => Promise<void>;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    // 30 jobs in three queues, with run_at 0…29.
    const rows = Array.from({ length: 30 }, (_, i) => {
      const id = newId();
      ids.push(id);
      return {
        id,
        queue: `queue-${i % 3}`,
        payload: '{}',
        status: i % 2 === 0 ? ('succeeded' as const) : ('failed' as const),
        max_attempts: 1,
        run_at: i,
        created_at: 0,
        updated_at: 0,
      };
    });
    await db.insertInto('jobs').values(rows).execute();
  });

  afterAll(() => close());

  const pendingJob = (id: string, queue: string) => ({
    id,
    queue,
    payload: '{}',
    status: 'pending' as const,
    max_attempts: 1,
    run_at: 0,
    created_at: 0,
    updated_at: 0,
  });

  /** The same query built afresh each time, for comparison. */
  const direct = (queue: string, from: number, some: string[]) =>
    db
      .selectFrom('jobs')
      .select(['id', 'run_at'])
      .where('queue', '=', queue)
      .where('status', '=', 'succeeded')
      .where('run_at', '>=', from)
      .where('id', 'in', some)
      .orderBy('run_at')
      .execute();

  it('answers what the query built afresh answers, for any arguments, compiling once per shape', async () => {
    let builds = 0;
    const jobs = preparedQuery((d, queue: string, from: number, some: string[]) => {
      builds++;
      return d
        .selectFrom('jobs')
        .select(['id', 'run_at'])
        .where('queue', '=', queue)
        .where('status', '=', 'succeeded')
        .where('run_at', '>=', from)
        .where('id', 'in', some)
        .orderBy('run_at');
    });
    const cases: [string, number, string[]][] = [
      ['queue-0', 0, ids.slice(0, 20)],
      ['queue-1', 5, ids.slice(5, 25)],
      ['queue-2', 12, ids.slice(10, 30)],
      ['queue-0', 100, ids.slice(0, 20)],
      ['nothing', 0, ids.slice(0, 20)],
    ];
    for (const [queue, from, some] of cases) {
      const expected = await direct(queue, from, some);
      expect(await jobs.all(db, queue, from, some)).toEqual(expected);
    }
    expect(builds).toBe(1);
    // Another array length is another shape, compiled once as well.
    const three = ids.slice(0, 3);
    expect(await jobs.all(db, 'queue-0', 0, three)).toEqual(await direct('queue-0', 0, three));
    expect(await jobs.all(db, 'queue-1', 0, ids.slice(3, 6))).toEqual(
      await direct('queue-1', 0, ids.slice(3, 6)),
    );
    expect(builds).toBe(2);
    expect((await jobs.first(db, 'queue-0', 0, three))?.id).toBe(ids[0]);
    expect(await jobs.first(db, 'nothing', 0, three)).toBeUndefined();
  });

  it('takes undefined and booleans as the shape of the query, not as values', async () => {
    let builds = 0;
    const jobs = preparedQuery((d, queue: string | undefined, newestFirst: boolean) => {
      builds++;
      const q = d
        .selectFrom('jobs')
        .select('id')
        .orderBy('run_at', newestFirst ? 'desc' : 'asc');
      return queue === undefined ? q : q.where('queue', '=', queue);
    });
    expect((await jobs.all(db, undefined, false)).map((r) => r.id)).toEqual(ids);
    expect((await jobs.all(db, undefined, true)).map((r) => r.id)).toEqual([...ids].reverse());
    expect((await jobs.all(db, 'queue-1', false)).map((r) => r.id)).toEqual(
      ids.filter((_, i) => i % 3 === 1),
    );
    expect((await jobs.all(db, 'queue-2', false)).map((r) => r.id)).toEqual(
      ids.filter((_, i) => i % 3 === 2),
    );
    expect(builds).toBe(3);
  });

  it('compiles through the plugins of a database that has some, with the arguments themselves', async () => {
    const seen: unknown[][] = [];
    const watched = db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: (args) => Promise.resolve(args.result),
    });
    const byQueue = preparedQuery((d, queue: string) =>
      d.selectFrom('jobs').select('id').where('queue', '=', queue),
    );
    const spy = watched.withPlugin({
      transformQuery: (args) => {
        const compiled = db.getExecutor().compileQuery(args.node, args.queryId);
        seen.push([...compiled.parameters]);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    expect(await byQueue.all(spy, 'queue-0')).toHaveLength(10);
    expect(seen).toEqual([['queue-0']]);
  });

  it('runs inside a transaction on its connection', async () => {
    const byId = preparedQuery((d, id: string) =>
      d.selectFrom('jobs').select('queue').where('id', '=', id),
    );
    const id = newId();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('jobs').values(pendingJob(id, 'in-transaction')).execute();
      expect(await byId.first(trx, id)).toEqual({ queue: 'in-transaction' });
      await trx.deleteFrom('jobs').where('id', '=', id).execute();
    });
    expect(await byId.first(db, id)).toBeUndefined();
  });

  it('compiles a long array for its run only, and still answers right', async () => {
    let builds = 0;
    const some = preparedQuery((d, list: string[]) => {
      builds++;
      return d.selectFrom('jobs').select('id').where('id', 'in', list).orderBy('run_at');
    });
    const many = [...ids, ...Array.from({ length: 100 }, () => newId())];
    expect((await some.all(db, many)).map((r) => r.id)).toEqual(ids);
    expect((await some.all(db, many)).map((r) => r.id)).toEqual(ids);
    expect(builds).toBe(2);
  });

  it('refuses a builder that changes an argument instead of binding it, before running it', async () => {
    const upper = preparedQuery((d, queue: string) =>
      d.selectFrom('jobs').select('id').where('queue', '=', queue.toUpperCase()),
    );
    await expect(upper.all(db, 'queue-0')).rejects.toThrow(
      /argument 0 did not reach the SQL parameters/,
    );
    const unused = preparedQuery((d, _queue: string) => d.selectFrom('jobs').select('id'));
    await expect(unused.all(db, 'queue-0')).rejects.toThrow(/argument 0/);
  });

  it('never reads what a transaction has not committed yet, on a database read at once or not', async () => {
    const byQueue = preparedQuery((d, queue: string) =>
      d.selectFrom('jobs').select('id').where('queue', '=', queue),
    );
    const id = newId();
    let commit = () => {};
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let inserted = () => {};
    const written = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('jobs').values(pendingJob(id, 'uncommitted')).execute();
      inserted();
      await gate;
      await trx.deleteFrom('jobs').where('id', '=', id).execute();
      await trx.insertInto('jobs').values(pendingJob(id, 'committed')).execute();
    });
    await written;
    // Read while the transaction is open: it must not see the row written inside it.
    let seen: unknown[] | undefined;
    const reading = byQueue.all(db, 'uncommitted').then((rows) => (seen = rows));
    await new Promise((resolve) => setTimeout(resolve, 30));
    // SQLite has one connection: the read waits for the transaction to end. PostgreSQL reads the
    // committed state at once.
    expect(seen === undefined || seen.length === 0).toBe(true);
    commit();
    await transaction;
    await reading;
    expect(seen).toEqual([]);
    expect(await byQueue.all(db, 'committed')).toEqual([{ id }]);
    await db.deleteFrom('jobs').where('id', '=', id).execute();
  });
});
