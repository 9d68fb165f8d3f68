import type { CollectionMode } from '@raccolta/contracts';
import type { AppContext } from '../../src/context.js';
import { newId } from '../../src/db/ids.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { buildWorld, type World } from '../members/world.js';

export interface StoredCollection {
  id: string;
  teamId: string;
  createdBy: string;
  mode: CollectionMode;
}

/**
 * A collection written straight to the database, its tag rows carrying its updated_at as the
 * service keeps them. `updatedAt` defaults to the clock; tags are stored in the order given.
 */
export async function createCollection(
  ctx: AppContext,
  input: {
    teamId: string;
    creator: UserRow;
    mode?: CollectionMode;
    name?: string;
    description?: string | null;
    updatedAt?: number;
    tags?: UserRow[];
  },
): Promise<StoredCollection> {
  const id = newId();
  const at = input.updatedAt ?? ctx.clock();
  const mode = input.mode ?? 'owned';
  await ctx.db
    .insertInto('collections')
    .values({
      id,
      team_id: input.teamId,
      name: input.name ?? `Collection ${id.slice(-6)}`,
      description: input.description ?? null,
      mode,
      status: 'draft',
      created_at: at,
      created_by: input.creator.id,
      updated_at: at,
      updated_by: input.creator.id,
    })
    .execute();
  for (const [position, tagged] of (input.tags ?? []).entries()) {
    await ctx.db
      .insertInto('collection_tags')
      .values({
        collection_id: id,
        user_id: tagged.id,
        team_id: input.teamId,
        updated_at: at,
        position,
      })
      .execute();
  }
  return { id, teamId: input.teamId, createdBy: input.creator.id, mode };
}

export interface CollectionWorld extends World {
  collections: {
    /** Owned by the owner: an uploader may not even see it. */
    ownersOwned: StoredCollection;
    /** Owned by the world's uploader, who may change it. */
    uploadersOwned: StoredCollection;
    /** Collaborative, made by the admin: everyone sees it, only managers change it. */
    shared: StoredCollection;
    /** Of the other team, made by the foreigner. */
    foreign: StoredCollection;
  };
}

/** The members world (every role, disabled, outsider, foreigner) with a collection of each kind. */
export async function buildCollectionWorld(ctx: AppContext): Promise<CollectionWorld> {
  const world = await buildWorld(ctx);
  const { team, otherTeam, users } = world;
  const collections = {
    ownersOwned: await createCollection(ctx, { teamId: team.id, creator: users.owner }),
    uploadersOwned: await createCollection(ctx, {
      teamId: team.id,
      creator: users.uploader,
      tags: [world.target],
    }),
    shared: await createCollection(ctx, {
      teamId: team.id,
      creator: users.admin,
      mode: 'collaborative',
    }),
    foreign: await createCollection(ctx, { teamId: otherTeam.id, creator: users.foreigner }),
  };
  return { ...world, collections };
}

/** Every row a collection call could write, to prove a refusal wrote nothing. */
export async function snapshot(ctx: AppContext): Promise<string> {
  const db = ctx.db;
  const [collections, tags, reads, teams, links, mails] = await Promise.all([
    db.selectFrom('collections').selectAll().orderBy('id').execute(),
    db
      .selectFrom('collection_tags')
      .selectAll()
      .orderBy('collection_id')
      .orderBy('user_id')
      .execute(),
    db
      .selectFrom('collection_reads')
      .selectAll()
      .orderBy('collection_id')
      .orderBy('user_id')
      .execute(),
    db.selectFrom('teams').selectAll().orderBy('id').execute(),
    db.selectFrom('upload_links').selectAll().orderBy('id').execute(),
    // Mail queued (reminders sent now): a refused request sends none.
    db
      .selectFrom('jobs')
      .select('payload')
      .where('queue', '=', 'mail.send')
      .orderBy('id')
      .execute(),
  ]);
  return JSON.stringify({ collections, tags, reads, teams, links, mails });
}
