import { CompiledQuery, sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionRow } from '../../src/db/rows.js';
import type { Db } from '../../src/db/create-db.js';
import { newId } from '../../src/db/ids.js';
import { encodeCursor } from '../../src/db/pagination.js';
import {
  listCollectionFiles,
  listFilesOfUser,
  listTeamFiles,
  type FileListFilters,
  type FileRow,
} from '../../src/files/files.repository.js';
import { createTeam } from '../helpers/factories.js';
import { testDbKind } from '../helpers/test-db.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { buildWorld, type World } from '../members/world.js';
import { createCollection } from './files-world.js';

const TOTAL = 12_000;
const T0 = 1_700_000_000_000;

/**
 * The file lists must be index range scans that stop after a page, on both databases, so any
 * page, however deep, costs what the first one costs. The plans are read from the databases
 * themselves over data shaped to tempt a planner into the wrong index: the collection looked at
 * holds a quarter of all files, all of them the oldest, so walking files_updated_idx (updated_at,
 * id) from the newest end and filtering would read three quarters of the table for page 1.
 */
describe('file list query plans', () => {
  let server: TestServer;
  let world: World;
  let target: CollectionRow;
  let middle: FileRow;
  let rareUploader: string;
  const kind = testDbKind();

  beforeAll(async () => {
    server = await startTestServer();
    const { ctx } = server;
    world = await buildWorld(ctx);
    rareUploader = world.users.uploader.id;
    const busy = await createTeam(ctx, { owner: world.users.foreigner, name: 'Busy' });
    const collection = (teamId: string, createdBy: string) =>
      createCollection(ctx, { teamId, createdBy, mode: 'collaborative' });
    target = await collection(world.team.id, world.users.admin.id);
    const others: CollectionRow[] = [];
    for (let i = 0; i < 4; i++) others.push(await collection(world.team.id, world.users.admin.id));
    for (let i = 0; i < 15; i++) others.push(await collection(busy.id, world.users.foreigner.id));

    const rows: FileRow[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const inTarget = i < TOTAL / 4;
      const where = inTarget ? target : others[i % others.length];
      if (!where) throw new Error('no collection');
      const id = newId();
      rows.push({
        id,
        team_id: where.team_id,
        collection_id: where.id,
        name: `f${i}.txt`,
        original_name: `f${i}.txt`,
        content_type: 'text/plain',
        size: 1,
        sha256: '0'.repeat(64),
        received_sha256: '0'.repeat(64),
        storage_key: `teams/${where.team_id}/collections/${where.id}/${id}/original`,
        // One upload in fifty is the rare uploader's: a creator filter worth an index.
        uploaded_by: i % 50 === 0 ? rareUploader : world.users.admin.id,
        rendition_status: 'none',
        thumbnail_key: null,
        preview_key: null,
        width: null,
        height: null,
        created_at: T0 + i * 1000,
        updated_at: T0 + i * 1000,
        damaged_at: null,
        link_id: null,
        guest_id: null,
        guest_name: null,
        guest_email: null,
        late: 0,
      });
    }
    for (let i = 0; i < rows.length; i += 500) {
      await ctx.db
        .insertInto('files')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    const inTarget = rows.filter((r) => r.collection_id === target.id);
    const picked = inTarget[Math.floor(inTarget.length / 2)];
    if (!picked) throw new Error('no file');
    middle = picked;
    await sql`analyze`.execute(ctx.db);
  });
  afterAll(() => server.close());

  /** The statement a list runs, compiled, as the database receives it. */
  async function statementOf(run: (db: Db) => Promise<unknown>): Promise<CompiledQuery> {
    const executor = server.ctx.db.getExecutor();
    const seen: CompiledQuery[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        seen.push(executor.compileQuery(node, queryId));
        return node;
      },
      transformResult: ({ result }) => Promise.resolve(result),
    };
    await run(server.ctx.db.withPlugin(capture));
    const [statement] = seen;
    if (!statement) throw new Error('no statement');
    return statement;
  }

  async function planOf(run: (db: Db, kind: 'sqlite' | 'postgres') => Promise<unknown>) {
    const statement = await statementOf((db) => run(db, kind));
    const explain = kind === 'postgres' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
    const result = await server.ctx.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${explain} ${statement.sql}`, [...statement.parameters]),
    );
    return result.rows
      .map((r) => String(kind === 'postgres' ? r['QUERY PLAN'] : r.detail))
      .join('\n');
  }

  /** `index` read in the list's order: no sort step, no temp b-tree, no other index on files. */
  function expectIndexOrderedScan(plan: string, index: string) {
    expect(plan, plan).toMatch(new RegExp(`\\b${index}\\b`));
    expect(plan, plan).not.toMatch(/\bfiles_updated_idx\b/);
    if (kind === 'postgres') {
      expect(plan, plan).not.toMatch(/\bSort\b/);
      expect(plan, plan).not.toMatch(/Seq Scan on files/);
    } else {
      expect(plan, plan).not.toMatch(/TEMP B-TREE/);
      expect(plan, plan).not.toMatch(/^SCAN files\b/m);
    }
  }

  /** The cursor bounds the index seek itself: a deep page starts where the last one ended. */
  function expectSeekFromCursor(plan: string) {
    if (kind === 'postgres')
      expect(plan, plan).toMatch(/Index Cond: .*ROW\(updated_at, id\) [<>] ROW\(/);
    else expect(plan, plan).toMatch(/\(updated_at,id\)[<>]\(\?,\?\)\)/);
  }

  const cursor = () => encodeCursor(middle.updated_at, middle.id);
  const desc: FileListFilters = { sort: 'desc' };

  it("a collection's list reads files_collection_updated_idx, any page, either order", async () => {
    for (const filters of [
      desc,
      { sort: 'asc' as const },
      { ...desc, from: T0 + 100_000, to: T0 + 900_000 },
    ]) {
      const plan = await planOf((db, k) => listCollectionFiles(db, k, target.id, filters));
      expectIndexOrderedScan(plan, 'files_collection_updated_idx');
    }
    for (const filters of [
      { ...desc, lastKey: cursor() },
      { sort: 'asc' as const, lastKey: cursor() },
    ]) {
      const plan = await planOf((db, k) => listCollectionFiles(db, k, target.id, filters));
      expectIndexOrderedScan(plan, 'files_collection_updated_idx');
      expectSeekFromCursor(plan);
    }
  });

  it("a collection's list by creator reads files_collection_uploader_updated_idx", async () => {
    for (const filters of [
      { ...desc, creator: rareUploader },
      { ...desc, creator: rareUploader, lastKey: cursor() },
    ]) {
      const plan = await planOf((db, k) => listCollectionFiles(db, k, target.id, filters));
      expectIndexOrderedScan(plan, 'files_collection_uploader_updated_idx');
    }
  });

  it("a team's list reads files_team_updated_idx, or …_uploader_… by creator", async () => {
    const manager = { userId: world.users.admin.id, isUploader: false };
    const uploader = { userId: rareUploader, isUploader: true };
    for (const [viewer, filters] of [
      [manager, desc],
      [manager, { ...desc, lastKey: cursor() }],
      [uploader, { ...desc, lastKey: cursor() }],
    ] as const) {
      const plan = await planOf((db, k) => listTeamFiles(db, k, world.team.id, viewer, filters));
      expectIndexOrderedScan(plan, 'files_team_updated_idx');
    }
    const byCreator = await planOf((db, k) =>
      listTeamFiles(db, k, world.team.id, manager, { ...desc, creator: rareUploader }),
    );
    expectIndexOrderedScan(byCreator, 'files_team_uploader_updated_idx');
  });

  it('the list across teams reads files_updated_idx in order', async () => {
    const plan = await planOf((db, k) => listFilesOfUser(db, k, world.users.admin.id, desc));
    expect(plan, plan).toMatch(/\bfiles_updated_idx\b/);
    expect(plan, plan).not.toMatch(kind === 'postgres' ? /\bSort\b/ : /TEMP B-TREE/);
  });

  it("answers a collection's deep page with the rows the keyset says", async () => {
    const page = await listCollectionFiles(server.ctx.db, kind, target.id, {
      ...desc,
      lastKey: cursor(),
    });
    expect(page.items).toHaveLength(20);
    expect(page.items[0]?.updated_at).toBe(middle.updated_at - 1000);
    expect(page.items.every((r) => r.collection_id === target.id)).toBe(true);
  });
});
