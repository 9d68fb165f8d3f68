/*
 * The collection endpoints of the authorisation matrix. Each names the §6 truth-table row that
 * decides it (contracts' testing tables, typed from the spec), never the rule under test: a rule
 * that goes wrong in contracts changes what the API answers, not what this matrix expects.
 */

import {
  MEMBER_ROLES,
  type CollectionMode,
  type MemberRole,
  type TeamMode,
} from '@raccolta/contracts';
import {
  ROLE_RULE_TABLE,
  collectionRule,
  createCollectionRule,
  specAllows,
  type CollectionAction,
} from '@raccolta/contracts/testing';
import type { AppContext } from '../../src/context.js';
import { newId } from '../../src/db/ids.js';
import { newLinkToken } from '../../src/links/link-tokens.js';
import { insertLink } from '../../src/links/links.repository.js';
import type { Caller } from '../members/world.js';
import type { CollectionWorld, StoredCollection } from './world.js';

interface Actor {
  userId: string;
  role: MemberRole;
}

export interface Endpoint {
  name: string;
  /** The collection acted on: one the caller may not see is 404 before any rule applies. */
  collection?: (world: CollectionWorld) => StoredCollection;
  /** The table's answer for a role that sees the collection: `ok` when allowed, else 403. */
  allowed: (actor: Actor, world: CollectionWorld) => boolean;
  ok: number;
  /** For endpoints that need no membership: the answer by caller alone. */
  byCaller?: (caller: Caller) => number;
  /** Changes the world before the call (and before the snapshot taken to compare). */
  setup?: (ctx: AppContext, world: CollectionWorld) => Promise<void>;
  request: (world: CollectionWorld) => { method: string; url: string; payload?: unknown };
}

const ROLES: readonly string[] = MEMBER_ROLES;
export const isRole = (caller: Caller): caller is MemberRole => ROLES.includes(caller);

/** The table's row for this actor and collection: whether the actor made it, and its mode. */
const rule = (action: CollectionAction, actor: Actor, c: StoredCollection): boolean =>
  collectionRule(action, { role: actor.role, own: c.createdBy === actor.userId, mode: c.mode });
const sees = (actor: Actor, c: StoredCollection): boolean => rule('see', actor, c);
/** The rule of an action on the collection the endpoint picks. */
const may =
  (action: CollectionAction, pick: (w: CollectionWorld) => StoredCollection) =>
  (a: Actor, w: CollectionWorld) =>
    rule(action, a, pick(w));
const reads = (a: Actor) => specAllows('readCollection', a.role);
const creates = (teamMode: TeamMode, mode: CollectionMode) => (a: Actor) =>
  createCollectionRule({ role: a.role, teamMode, mode });

const team = (w: CollectionWorld) => `/teams/${w.team.id}`;
const one = (pick: (w: CollectionWorld) => StoredCollection) => (w: CollectionWorld) =>
  `${team(w)}/collections/${pick(w).id}`;
const ownersOwned = (w: CollectionWorld) => w.collections.ownersOwned;
const uploadersOwned = (w: CollectionWorld) => w.collections.uploadersOwned;
const shared = (w: CollectionWorld) => w.collections.shared;
const rename = (pick: (w: CollectionWorld) => StoredCollection) => (w: CollectionWorld) => ({
  method: 'PATCH',
  url: one(pick)(w),
  payload: [{ op: 'replace', path: '/name', value: 'Renamed' }],
});
const create = (mode: 'owned' | 'collaborative') => (w: CollectionWorld) => ({
  method: 'POST',
  url: `${team(w)}/collections`,
  payload: { name: 'New one', description: 'From the matrix', mode },
});

const switchMode =
  (pick: (w: CollectionWorld) => StoredCollection, mode: 'owned' | 'collaborative') =>
  (w: CollectionWorld) => ({
    method: 'PATCH',
    url: one(pick)(w),
    payload: [{ op: 'replace', path: '/mode', value: mode }],
  });

const remove = (pick: (w: CollectionWorld) => StoredCollection) => (w: CollectionWorld) => ({
  method: 'DELETE',
  url: one(pick)(w),
});

const links = (pick: (w: CollectionWorld) => StoredCollection) => (w: CollectionWorld) =>
  `${one(pick)(w)}/links`;

/** The link `withLink` put in a world's collection, for the PATCH and DELETE rows. */
const linkIds = new WeakMap<CollectionWorld, string>();

/** One enabled upload link in the picked collection, made by the collection's creator. */
export async function addLink(ctx: AppContext, collection: StoredCollection): Promise<string> {
  const id = newId();
  const token = newLinkToken(ctx.config.secret);
  const now = ctx.clock();
  await insertLink(ctx.db, {
    id,
    team_id: collection.teamId,
    collection_id: collection.id,
    token_hash: token.hash,
    token_enc: token.encrypted,
    label: 'Existing',
    password_hash: null,
    expires_at: null,
    max_files: null,
    max_bytes: null,
    accepted_types: JSON.stringify(['image/*']),
    require_name: 0,
    require_email: 0,
    enabled: 1,
    reserved_files: 0,
    reserved_bytes: 0,
    created_at: now,
    created_by: collection.createdBy,
    updated_at: now,
  });
  return id;
}

const withLink =
  (pick: (w: CollectionWorld) => StoredCollection) =>
  async (ctx: AppContext, w: CollectionWorld): Promise<void> => {
    linkIds.set(w, await addLink(ctx, pick(w)));
  };
const linkOf = (w: CollectionWorld): string => {
  const id = linkIds.get(w);
  if (id === undefined) throw new Error('the endpoint made no link (setup: withLink)');
  return id;
};

/** Upload links for guests: the table's manageLinks row of each collection (issue #36). */
const LINK_ENDPOINTS: Endpoint[] = (
  [
    ["the owner's owned collection", ownersOwned],
    ["the uploader's owned collection", uploadersOwned],
    ['a shared collection', shared],
  ] as const
).flatMap(([what, pick]) => [
  {
    name: `GET the upload links of ${what}`,
    collection: pick,
    allowed: may('manageLinks', pick),
    ok: 200,
    request: (w: CollectionWorld) => ({ method: 'GET', url: links(pick)(w) }),
  },
  {
    name: `POST an upload link to ${what}`,
    collection: pick,
    allowed: may('manageLinks', pick),
    ok: 201,
    request: (w: CollectionWorld) => ({
      method: 'POST',
      url: links(pick)(w),
      payload: { label: 'Matrix', maxFiles: 3 },
    }),
  },
  {
    name: `PATCH an upload link of ${what} (switched off)`,
    collection: pick,
    allowed: may('manageLinks', pick),
    ok: 200,
    setup: withLink(pick),
    request: (w: CollectionWorld) => ({
      method: 'PATCH',
      url: `${links(pick)(w)}/${linkOf(w)}`,
      payload: { enabled: false },
    }),
  },
  {
    name: `DELETE an upload link of ${what}`,
    collection: pick,
    allowed: may('manageLinks', pick),
    ok: 204,
    setup: withLink(pick),
    request: (w: CollectionWorld) => ({
      method: 'DELETE',
      url: `${links(pick)(w)}/${linkOf(w)}`,
    }),
  },
]);

export const ENDPOINTS: Endpoint[] = [
  ...LINK_ENDPOINTS,
  {
    name: 'GET team collections',
    allowed: reads,
    ok: 200,
    request: (w) => ({ method: 'GET', url: `${team(w)}/collections` }),
  },
  {
    name: 'GET team collections by alias, filtered',
    allowed: reads,
    ok: 200,
    request: (w) => ({
      method: 'GET',
      url: `/teams/${w.team.alias ?? ''}/collections?view=collaborative&sort=asc&tagged=${w.target.id}`,
    }),
  },
  {
    name: 'GET shared collections',
    allowed: reads,
    ok: 200,
    request: (w) => ({ method: 'GET', url: `${team(w)}/shared-collections` }),
  },
  {
    name: "GET a member's collections",
    allowed: reads,
    ok: 200,
    request: (w) => ({ method: 'GET', url: `${team(w)}/members/${w.users.owner.id}/collections` }),
  },
  {
    name: "GET a disabled member's collections",
    allowed: reads,
    ok: 200,
    request: (w) => ({
      method: 'GET',
      url: `${team(w)}/members/${w.disabledTarget.id}/collections`,
    }),
  },
  {
    // Signed in is enough: the list holds what the caller's memberships show, maybe nothing.
    name: 'GET collections of every team',
    allowed: () => true,
    ok: 200,
    byCaller: (c) => (c === 'anonymous' ? 401 : 200),
    request: () => ({ method: 'GET', url: '/collections' }),
  },
  {
    name: "GET the owner's owned collection",
    collection: ownersOwned,
    allowed: reads,
    ok: 200,
    request: (w) => ({ method: 'GET', url: one(ownersOwned)(w) }),
  },
  {
    name: "GET the uploader's owned collection",
    collection: uploadersOwned,
    allowed: reads,
    ok: 200,
    request: (w) => ({ method: 'GET', url: one(uploadersOwned)(w) }),
  },
  {
    name: 'GET a shared collection',
    collection: shared,
    allowed: reads,
    ok: 200,
    request: (w) => ({ method: 'GET', url: one(shared)(w) }),
  },
  {
    name: 'POST an owned collection (collaborative team)',
    allowed: creates('collaborative', 'owned'),
    ok: 201,
    request: create('owned'),
  },
  {
    name: 'POST a collaborative collection (collaborative team)',
    allowed: creates('collaborative', 'collaborative'),
    ok: 201,
    request: create('collaborative'),
  },
  {
    name: 'POST an owned collection (controlled team)',
    allowed: creates('controlled', 'owned'),
    ok: 201,
    setup: async (ctx, w) => {
      await ctx.db
        .updateTable('teams')
        .set({ mode: 'controlled' })
        .where('id', '=', w.team.id)
        .execute();
    },
    request: create('owned'),
  },
  {
    name: "PATCH the owner's owned collection",
    collection: ownersOwned,
    allowed: may('update', ownersOwned),
    ok: 200,
    request: rename(ownersOwned),
  },
  {
    name: "PATCH the uploader's owned collection",
    collection: uploadersOwned,
    allowed: may('update', uploadersOwned),
    ok: 200,
    request: rename(uploadersOwned),
  },
  {
    name: 'PATCH a shared collection',
    collection: shared,
    allowed: may('update', shared),
    ok: 200,
    request: rename(shared),
  },
  {
    name: "PATCH the uploader's collection tags",
    collection: uploadersOwned,
    allowed: may('update', uploadersOwned),
    ok: 200,
    request: (w) => ({
      method: 'PATCH',
      url: one(uploadersOwned)(w),
      payload: [
        { op: 'test', path: '/tags', value: [w.target.id] },
        { op: 'replace', path: '/tags', value: [w.users.viewer.id, w.target.id] },
      ],
    }),
  },
  {
    name: "PATCH the uploader's owned collection to shared",
    collection: uploadersOwned,
    allowed: may('changeMode', uploadersOwned),
    ok: 200,
    request: switchMode(uploadersOwned, 'collaborative'),
  },
  {
    name: 'PATCH a shared collection to private',
    collection: shared,
    allowed: may('changeMode', shared),
    ok: 200,
    request: switchMode(shared, 'owned'),
  },
  {
    name: "DELETE the owner's owned collection",
    collection: ownersOwned,
    allowed: may('delete', ownersOwned),
    ok: 204,
    request: remove(ownersOwned),
  },
  {
    name: "DELETE the uploader's owned collection",
    collection: uploadersOwned,
    allowed: may('delete', uploadersOwned),
    ok: 204,
    request: remove(uploadersOwned),
  },
  {
    name: 'DELETE a shared collection',
    collection: shared,
    allowed: may('delete', shared),
    ok: 204,
    request: remove(shared),
  },
];

/** Issue #36: "send a reminder now", on a collection with a deadline a week ahead. */
const remind = (pick: (w: CollectionWorld) => StoredCollection): Endpoint => ({
  name: `POST a reminder for ${pick === shared ? 'a shared collection' : "the uploader's owned collection"}`,
  collection: pick,
  allowed: (a) => ROLE_RULE_TABLE.sendReminder[a.role],
  ok: 202,
  setup: async (ctx, w) => {
    await ctx.db
      .updateTable('collections')
      .set({ deadline_at: ctx.clock() + 7 * 24 * 60 * 60_000, deadline_zone: 'Europe/Rome' })
      .where('id', '=', pick(w).id)
      .execute();
  },
  request: (w) => ({ method: 'POST', url: `${one(pick)(w)}/reminders` }),
});
ENDPOINTS.push(remind(shared), remind(uploadersOwned));

export function expectedStatus(endpoint: Endpoint, caller: Caller, world: CollectionWorld): number {
  if (endpoint.byCaller) return endpoint.byCaller(caller);
  if (caller === 'anonymous') return 401;
  // Disabled, not a member, or a member of another team only: this team does not exist for them.
  if (!isRole(caller)) return 404;
  const actor = { userId: world.users[caller].id, role: caller };
  // A collection the caller may not see does not exist for them either.
  if (endpoint.collection && !sees(actor, endpoint.collection(world))) return 404;
  return endpoint.allowed(actor, world) ? endpoint.ok : 403;
}
