import {
  CompiledQuery,
  createQueryId,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listCollectionsOfUser,
  listTeamCollections,
  type CollectionViewer,
} from '../../src/collections/collection-lists.js';
import type { Db } from '../../src/db/create-db.js';
import { encodeCursor, type Page } from '../../src/db/pagination.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { testDbKind } from '../helpers/test-db.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { createCollection } from './world.js';

/** Keeps the last query a repository call ran, to explain it. */
class LastQuery implements KyselyPlugin {
  node: RootOperationNode | undefined;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.node = args.node;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/**
 * Each list walks the index of migration 0005 meant for it, with the cursor as a bound of that
 * index's range rather than a filter, so a deep page costs what page 1 does. PostgreSQL plans by
 * statistics, which a small test table does not have: there sequential scans and sorts are
 * priced out, so the plan shows the index that serves the order.
 */
describe('collections: query plans', () => {
  let server: TestServer;
  let owner: UserRow;
  let uploader: UserRow;
  let team: { id: string };
  const kind = testDbKind();

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server.ctx, { email: 'plan@example.com', password: null });
    uploader = await createUser(server.ctx, { email: 'plan.up@example.com', password: null });
    team = await createTeam(server.ctx, { owner, name: 'Plans' });
    await addMember(server.ctx, { teamId: team.id, user: uploader, role: 'uploader' });
    for (let i = 0; i < 30; i++) {
      await createCollection(server.ctx, {
        teamId: team.id,
        creator: i % 2 === 0 ? owner : uploader,
        mode: i % 3 === 0 ? 'collaborative' : 'owned',
        updatedAt: 1_000 + i,
        tags: i % 2 === 0 ? [uploader] : [],
      });
    }
  });
  afterAll(() => server.close());

  async function plan(run: (db: Db) => Promise<Page<unknown>>): Promise<string> {
    const last = new LastQuery();
    await run(server.ctx.db.withPlugin(last));
    if (!last.node) throw new Error('no query ran');
    const query = server.ctx.db.getExecutor().compileQuery(last.node, createQueryId());
    if (kind === 'sqlite') {
      const rows = await server.ctx.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return rows.rows.map((r) => r.detail).join('\n');
    }
    return server.ctx.db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      await trx.executeQuery(CompiledQuery.raw('set local enable_sort = off'));
      const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  const cursor = encodeCursor(1_020, '01900000-0000-7000-8000-000000000000');
  const ownerView: CollectionViewer = { userId: '', role: 'owner' };
  const uploaderView = (): CollectionViewer => ({ userId: uploader.id, role: 'uploader' });
  /** The cursor bounds the index range: SQLite names it in the search, PostgreSQL in Index Cond. */
  const seek = (columns: string, op: '<' | '>') =>
    kind === 'sqlite' ? `(${columns.replace(' ', '')})${op}(?,?)` : `ROW(${columns}) ${op} ROW(`;

  it.each([
    ['the team list', 'collections_team_updated_idx', false, {}, 'updated_at, id'],
    ["an uploader's team list", 'collections_team_updated_idx', true, {}, 'updated_at, id'],
    [
      'by creator',
      'collections_team_creator_updated_idx',
      false,
      { member: 'owner' },
      'updated_at, id',
    ],
    [
      'shared only',
      'collections_team_mode_updated_idx',
      true,
      { collaborative: true },
      'updated_at, id',
    ],
    [
      'by tag',
      'collection_tags_team_user_updated_idx',
      true,
      { tagged: 'uploader' },
      'updated_at, collection_id',
    ],
  ] as const)('%s walks %s', async (_, index, asUploader, filters, columns) => {
    const explained = await plan((db) =>
      listTeamCollections(db, team.id, asUploader ? uploaderView() : ownerView, {
        sort: 'desc',
        lastKey: cursor,
        ...('member' in filters ? { member: owner.id } : {}),
        ...('tagged' in filters ? { tagged: uploader.id } : {}),
        ...('collaborative' in filters ? { collaborative: true } : {}),
      }),
    );
    expect(explained).toContain(index);
    expect(explained).toContain(seek(columns, '<'));
  });

  it('GET /collections walks the collections by updated_at, or each membership in order', async () => {
    const all = await plan((db) =>
      listCollectionsOfUser(db, uploader.id, { sort: 'desc', lastKey: cursor }),
    );
    expect(all).toMatch(/collections_(team_)?updated_idx/);
    expect(all).toContain(seek('updated_at, id', '<'));
    const tagged = await plan((db) =>
      listCollectionsOfUser(db, owner.id, { sort: 'asc', lastKey: cursor, tagged: uploader.id }),
    );
    expect(tagged).toContain('collections_updated_idx');
    expect(tagged).toContain(seek('updated_at, id', '>'));
  });
});
