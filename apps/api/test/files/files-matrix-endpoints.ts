/*
 * The files endpoints of the authorisation matrix. Each names the §6 truth-table row that decides
 * it (contracts' testing tables, typed from the spec), never the rule under test: a rule that goes
 * wrong in contracts changes what the API answers, not what this matrix expects.
 */

import { MEMBER_ROLES, type MemberRole } from '@raccolta/contracts';
import { collectionRule, specAllows, type CollectionAction } from '@raccolta/contracts/testing';
import type { AppContext } from '../../src/context.js';
import { renditionUrl } from '../../src/files/rendition-links.js';
import type { Caller } from '../members/world.js';
import { COLLECTION_KINDS, type CollectionKind, type FilesWorld } from './files-world.js';
import { fileBody } from './multipart.js';

export interface FilesRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: Buffer;
  contentType?: string;
  /** Rendition links carry their own credential: no Authorization header. */
  anonymous?: boolean;
}

export interface FilesEndpoint {
  name: string;
  /**
   * The collection the call is about, and the action on it whose table row decides: one the
   * caller cannot see is 404 before any rule. Without a collection, the team-wide permission.
   */
  rule:
    | { collection: CollectionKind; action: CollectionAction }
    | { collection?: undefined; allowed: (role: MemberRole) => boolean };
  ok: number;
  /** Whether a successful call writes anything (lists and images never do). */
  writes: boolean;
  /** Whether the call reads stored bytes; other calls run on rows only, which is quicker. */
  readsObjects?: boolean;
  /** The answer by caller alone where it does not follow the usual 401/404. */
  byCaller?: (caller: Caller) => number | undefined;
  request: (world: FilesWorld, ctx: AppContext, caller: Caller) => FilesRequest;
  /** Rows the call needs before it (a read mark to clear), written before the snapshot. */
  prepare?: (world: FilesWorld, ctx: AppContext, caller: Caller) => Promise<void>;
}

const ROLES: readonly string[] = MEMBER_ROLES;
export const isRole = (caller: Caller): caller is MemberRole => ROLES.includes(caller);

const filesOf = (w: FilesWorld, kind: CollectionKind) =>
  `/teams/${w.team.id}/collections/${w.collections[kind].id}/files`;
const fileOf = (w: FilesWorld, kind: CollectionKind) => `${filesOf(w, kind)}/${w.files[kind].id}`;

/** A link issued to the caller (a forged one for the anonymous caller), as the API would. */
function renditionRequest(w: FilesWorld, ctx: AppContext, caller: Caller, kind: CollectionKind) {
  const userId = caller === 'anonymous' ? w.users.owner.id : w.users[caller].id;
  const url = renditionUrl(
    {
      apiPublicUrl: ctx.config.apiPublicUrl,
      secret: caller === 'anonymous' ? 'not-the-app-secret' : ctx.config.secret,
      ttlSeconds: ctx.config.files.renditionUrlTtlSeconds,
    },
    { fileId: w.files[kind].id, userId, kind: 'thumbnail' },
    ctx.clock(),
  );
  return {
    method: 'GET' as const,
    url: new URL(url).pathname.replace(/^\/api/, ''),
    anonymous: true,
  };
}

function perCollection(kind: CollectionKind): FilesEndpoint[] {
  return [
    {
      name: `POST a file into the ${kind} collection`,
      rule: { collection: kind, action: 'addFile' },
      ok: 201,
      writes: true,
      request: (w) => {
        const body = fileBody('hello.txt', 'hello');
        return {
          method: 'POST',
          url: filesOf(w, kind),
          payload: body.payload,
          contentType: body.contentType,
        };
      },
    },
    {
      name: `GET the files of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 200,
      writes: false,
      request: (w) => ({ method: 'GET', url: filesOf(w, kind) }),
    },
    {
      name: `POST a lookup of digests in the ${kind} collection`,
      rule: { collection: kind, action: 'lookupFiles' },
      ok: 200,
      writes: false,
      request: (w) => ({
        method: 'POST',
        url: `${filesOf(w, kind)}/lookup`,
        payload: Buffer.from(JSON.stringify({ sha256: [w.files[kind].sha256] })),
        contentType: 'application/json',
      }),
    },
    {
      name: `GET the duplicates of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 200,
      writes: false,
      request: (w) => ({ method: 'GET', url: `${filesOf(w, kind)}/duplicates` }),
    },
    {
      name: `GET a member's files of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 200,
      writes: false,
      request: (w) => ({
        method: 'GET',
        url: `/teams/${w.team.id}/members/${w.users.uploader.id}/collections/${w.collections[kind].id}/files`,
      }),
    },
    {
      name: `GET a file of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 200,
      writes: true,
      request: (w) => ({ method: 'GET', url: fileOf(w, kind) }),
    },
    {
      name: `GET a download link of the ${kind} collection`,
      rule: { collection: kind, action: 'downloadFile' },
      ok: 200,
      writes: true,
      request: (w) => ({ method: 'GET', url: `${fileOf(w, kind)}/download` }),
    },
    {
      name: `DELETE a file of the ${kind} collection`,
      rule: { collection: kind, action: 'deleteFile' },
      ok: 204,
      writes: true,
      request: (w) => ({ method: 'DELETE', url: fileOf(w, kind) }),
    },
    {
      name: `PUT the read mark of a file of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 204,
      writes: true,
      request: (w) => ({ method: 'PUT', url: `${fileOf(w, kind)}/read` }),
    },
    {
      name: `DELETE the read mark of a file of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 204,
      writes: true,
      prepare: async (w, ctx, caller) => {
        if (caller === 'anonymous') return;
        await ctx.db
          .insertInto('file_reads')
          .values({ file_id: w.files[kind].id, user_id: w.users[caller].id, read_at: 1 })
          .execute();
      },
      request: (w) => ({ method: 'DELETE', url: `${fileOf(w, kind)}/read` }),
    },
    {
      name: `PUT the read mark of the ${kind} collection (all its files)`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 204,
      writes: true,
      request: (w) => ({
        method: 'PUT',
        url: `/teams/${w.team.id}/collections/${w.collections[kind].id}/read`,
      }),
    },
    {
      name: `DELETE the read mark of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 204,
      writes: true,
      prepare: async (w, ctx, caller) => {
        if (caller === 'anonymous') return;
        await ctx.db
          .insertInto('collection_reads')
          .values({
            collection_id: w.collections[kind].id,
            user_id: w.users[caller].id,
            read_at: 1,
          })
          .execute();
      },
      request: (w) => ({
        method: 'DELETE',
        url: `/teams/${w.team.id}/collections/${w.collections[kind].id}/read`,
      }),
    },
    {
      name: `GET a thumbnail link of the ${kind} collection`,
      rule: { collection: kind, action: 'readFiles' },
      ok: 200,
      writes: false,
      readsObjects: true,
      // No session: a link not made with the app's secret is invalidDownload.
      byCaller: (c) => (c === 'anonymous' ? 400 : undefined),
      request: (w, ctx, caller) => renditionRequest(w, ctx, caller, kind),
    },
  ];
}

export const FILES_ENDPOINTS: FilesEndpoint[] = [
  ...COLLECTION_KINDS.flatMap(perCollection),
  {
    name: "GET the team's files",
    rule: { allowed: (role) => specAllows('readFile', role) },
    ok: 200,
    writes: false,
    request: (w) => ({ method: 'GET', url: `/teams/${w.team.id}/files` }),
  },
  {
    // Everyone signed in has a list, of the teams they are active in (none for some callers).
    name: 'GET the files of all my teams',
    rule: { allowed: () => true },
    ok: 200,
    writes: false,
    byCaller: (c) => (c === 'anonymous' ? 401 : 200),
    request: () => ({ method: 'GET', url: '/files' }),
  },
];

export function expectedStatus(endpoint: FilesEndpoint, caller: Caller, world: FilesWorld): number {
  const byCaller = endpoint.byCaller?.(caller);
  if (byCaller !== undefined) return byCaller;
  if (caller === 'anonymous') return 401;
  // Disabled, not a member, or a member of another team only: this team does not exist for them.
  if (!isRole(caller)) return 404;
  const { rule } = endpoint;
  if (rule.collection === undefined) return rule.allowed(caller) ? endpoint.ok : 403;
  const row = world.collections[rule.collection];
  const at = { role: caller, own: row.created_by === world.users[caller].id, mode: row.mode };
  if (!collectionRule('see', at)) return 404;
  return collectionRule(rule.action, at) ? endpoint.ok : 403;
}
