import type { MemberRole } from '@raccolta/contracts';
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { Database } from '../db/database.js';
import { paginate, type Page, type SortDirection } from '../db/pagination.js';
import type { CollectionRow } from '../db/rows.js';

/**
 * The paged collection lists: keyset on (updated_at, id) over the indexes of migration 0005, so
 * any page is one index range scan however deep it is. Scoped by team, or by the caller's
 * memberships for GET /collections.
 */

/** A listed collection with the key it is paged on (its tag row's copy when listed by tag). */
export type CollectionListRow = CollectionRow & { sort_at: number };

/** Who is looking: an uploader sees the collections it created and the collaborative ones. */
export interface CollectionViewer {
  userId: string;
  role: MemberRole;
}

export interface CollectionListOptions {
  sort: SortDirection;
  from?: number | undefined;
  to?: number | undefined;
  limit?: number | undefined;
  lastKey?: string | undefined;
}

export interface TeamCollectionFilters extends CollectionListOptions {
  /** Created by this user. */
  member?: string | undefined;
  /** Tagged with this user. */
  tagged?: string | undefined;
  /** Only collaborative (shared) collections. */
  collaborative?: boolean | undefined;
}

type ListQuery<TB extends keyof Database> = SelectQueryBuilder<Database, TB, CollectionListRow>;

/** The keys lists are paged on: a collection's own, or its tag row's copy of them. */
const KEYS = {
  collections: { sort: 'collections.updated_at', id: 'collections.id' },
  collection_tags: { sort: 'collection_tags.updated_at', id: 'collection_tags.collection_id' },
} as const;

/** The §6 visibility rule of canSeeCollection, as a condition; checked after the index range. */
function visibleTo(userId: string): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref('collections.created_by')} = ${userId} or ${sql.ref('collections.mode')} = ${'collaborative'})`;
}

/**
 * What an uploader's list adds to its filters: nothing when they already imply the rule (its own
 * collections, shared ones only), the mode alone for another member's collections, else its own
 * or shared ones.
 */
function uploaderVisibility(
  viewer: CollectionViewer,
  filters: TeamCollectionFilters,
): 'none' | 'shared' | 'ownOrShared' {
  if (viewer.role !== 'uploader' || filters.collaborative === true) return 'none';
  if (filters.member === viewer.userId) return 'none';
  if (filters.member !== undefined) return 'shared';
  return 'ownOrShared';
}

/**
 * The conditions of a team's list (`undefined` or `false` leaves one out): created by a member,
 * shared ones only, an uploader's own or shared ones, and from/to, which bound the paged key
 * itself (inclusive), so they narrow the same index range.
 */
type TeamListConditions = [
  member: string | undefined,
  sharedOnly: boolean,
  ownOrSharedOf: string | undefined,
  from: number | undefined,
  to: number | undefined,
];

function withConditions<TB extends keyof Database>(
  query: ListQuery<TB>,
  keys: (typeof KEYS)[keyof typeof KEYS],
  ...[member, sharedOnly, ownOrSharedOf, from, to]: TeamListConditions
): ListQuery<TB> {
  let q = query;
  if (member !== undefined)
    q = q.where(sql<SqlBool>`${sql.ref('collections.created_by')} = ${member}`);
  if (sharedOnly) q = q.where(sql<SqlBool>`${sql.ref('collections.mode')} = ${'collaborative'}`);
  if (ownOrSharedOf !== undefined) q = q.where(visibleTo(ownOrSharedOf));
  if (from !== undefined) q = q.where(sql<SqlBool>`${sql.ref(keys.sort)} >= ${from}`);
  if (to !== undefined) q = q.where(sql<SqlBool>`${sql.ref(keys.sort)} <= ${to}`);
  return q;
}

function pageKeys(keys: (typeof KEYS)[keyof typeof KEYS]) {
  return {
    sortColumn: keys.sort,
    idColumn: keys.id,
    sortValue: (row: CollectionListRow) => row.sort_at,
    id: (row: CollectionListRow) => row.id,
  };
}

/**
 * One team's collections by updated_at, then id. Each variant walks one index of migration 0005:
 * the team's (collections_team_updated_idx), its creator's (…_team_creator_updated_idx), its
 * shared ones (…_team_mode_updated_idx); by tag it walks collection_tags'
 * (team_id, user_id, updated_at, collection_id) index and joins each row's collection.
 */
export function listTeamCollections(
  db: Db,
  teamId: string,
  viewer: CollectionViewer,
  filters: TeamCollectionFilters,
): Promise<Page<CollectionListRow>> {
  const visibility = uploaderVisibility(viewer, filters);
  const sharedOnly = filters.collaborative === true || visibility === 'shared';
  const ownOrSharedOf = visibility === 'ownOrShared' ? viewer.userId : undefined;
  const conditions: TeamListConditions = [
    filters.member,
    sharedOnly,
    ownOrSharedOf,
    filters.from,
    filters.to,
  ];
  const paging = { direction: filters.sort, limit: filters.limit, lastKey: filters.lastKey };
  if (filters.tagged !== undefined) {
    const tagged = db
      .selectFrom('collection_tags')
      .innerJoin('collections', 'collections.id', 'collection_tags.collection_id')
      .selectAll('collections')
      .select('collection_tags.updated_at as sort_at')
      .where('collection_tags.team_id', '=', teamId)
      .where('collection_tags.user_id', '=', filters.tagged);
    return paginate(withConditions(tagged, KEYS.collection_tags, ...conditions), {
      ...pageKeys(KEYS.collection_tags),
      ...paging,
    });
  }
  const own = db
    .selectFrom('collections')
    .selectAll('collections')
    .select('collections.updated_at as sort_at')
    .where('collections.team_id', '=', teamId);
  return paginate(withConditions(own, KEYS.collections, ...conditions), {
    ...pageKeys(KEYS.collections),
    ...paging,
  });
}

/** from/to bound the paged key itself (inclusive), so they narrow the same index range. */
function page<TB extends keyof Database>(
  query: ListQuery<TB>,
  keys: (typeof KEYS)[keyof typeof KEYS],
  opts: CollectionListOptions,
): Promise<Page<CollectionListRow>> {
  let q = query;
  if (opts.from !== undefined) q = q.where(sql<SqlBool>`${sql.ref(keys.sort)} >= ${opts.from}`);
  if (opts.to !== undefined) q = q.where(sql<SqlBool>`${sql.ref(keys.sort)} <= ${opts.to}`);
  return paginate(q, {
    ...pageKeys(keys),
    direction: opts.sort,
    limit: opts.limit,
    lastKey: opts.lastKey,
  });
}

/** The §6 rule per row of several teams: the caller's role there decides. */
function visibleThroughRole(userId: string): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref('team_members.role')} <> ${'uploader'} or ${visibleTo(userId)})`;
}

/**
 * GET /collections: the collections of every team the user is an active member of, each under
 * that team's visibility rule for the user's role there. PostgreSQL (and SQLite once analysed)
 * walks collections_updated_idx, checking each row's membership by team_members' primary key;
 * unanalysed SQLite walks each membership's range of collections_team_updated_idx in order and
 * stops each once the page is full. Either way a page costs the same at any depth.
 * By tag, both walk collections_updated_idx (the cross join keeps SQLite from starting at the
 * memberships and sorting) and check the tag by collection_tags' primary key.
 */
export function listCollectionsOfUser(
  db: Db,
  userId: string,
  filters: CollectionListOptions & { tagged?: string | undefined },
): Promise<Page<CollectionListRow>> {
  const { tagged } = filters;
  if (tagged !== undefined) {
    const byTag = db
      .selectFrom('collections')
      .crossJoin('team_members')
      .selectAll('collections')
      .select('collections.updated_at as sort_at')
      .whereRef('team_members.team_id', '=', 'collections.team_id')
      .where('team_members.user_id', '=', userId)
      .where('team_members.status', '=', 'active')
      .where(visibleThroughRole(userId))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('collection_tags')
            .select('collection_tags.user_id')
            .whereRef('collection_tags.collection_id', '=', 'collections.id')
            .where('collection_tags.user_id', '=', tagged),
        ),
      );
    return page(byTag, KEYS.collections, filters);
  }
  const all = db
    .selectFrom('collections')
    .innerJoin('team_members', 'team_members.team_id', 'collections.team_id')
    .selectAll('collections')
    .select('collections.updated_at as sort_at')
    .where('team_members.user_id', '=', userId)
    .where('team_members.status', '=', 'active')
    .where(visibleThroughRole(userId));
  return page(all, KEYS.collections, filters);
}
