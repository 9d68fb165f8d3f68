import {
  collectionListResponseSchema,
  type Collection,
  type CollectionMode,
} from '@raccolta/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { createCollection } from './world.js';

/** What a test stored, to compute every list's expected content and order. */
export interface Stored {
  id: string;
  teamId: string;
  createdBy: string;
  mode: CollectionMode;
  updatedAt: number;
  tags: string[];
}

export const BASE = Date.UTC(2026, 0, 10);

const byKey = (a: Stored, b: Stored) =>
  a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The ids in the order a list serves them: by updatedAt, then id. */
export function ordered(rows: Stored[], sort: 'asc' | 'desc' = 'desc'): string[] {
  const sorted = [...rows].sort(byKey).map((r) => r.id);
  return sort === 'asc' ? sorted : sorted.reverse();
}

export interface ListEnv {
  server: TestServer;
  clock: { now: number };
  users: Record<'owner' | 'admin' | 'uploader' | 'mate' | 'viewer', UserRow>;
  teamA: { id: string; alias: string | null };
  stored: Stored[];
  person: (nickname: string) => Promise<UserRow>;
  store: (input: {
    teamId: string;
    creator: UserRow;
    mode: CollectionMode;
    updatedAt: number;
    tags?: UserRow[];
  }) => Promise<Stored>;
  get: (url: string, as?: UserRow) => Promise<LightMyRequestResponse>;
  /** Every page of a list, checking each page's size; the collections in the order served. */
  walk: (url: string, as?: UserRow, limit?: number) => Promise<Collection[]>;
  ids: (url: string, as?: UserRow, limit?: number) => Promise<string[]>;
  /** What team A holds. */
  inA: () => Stored[];
}

/**
 * The app on a clock the test moves, with team A ("lists-a"): an owner, an admin, two uploaders
 * (uploader, mate) and a viewer, and 45 collections over 15 distinct times, so ties on
 * updated_at are broken by the id. Creators, modes and tags vary with the index.
 */
export async function startListEnv(): Promise<ListEnv> {
  const clock = { now: BASE + 86_400_000 };
  const server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { clock: () => clock.now });
  let people = 0;
  const stored: Stored[] = [];
  const person = (nickname: string) =>
    createUser(server.ctx, { email: `l${++people}@example.com`, nickname, password: null });
  const store: ListEnv['store'] = async (input) => {
    const c = await createCollection(server.ctx, input);
    const row = { ...c, updatedAt: input.updatedAt, tags: (input.tags ?? []).map((t) => t.id) };
    stored.push(row);
    return row;
  };

  const users = {
    owner: await person('Olivia'),
    admin: await person('Adele'),
    uploader: await person('Ugo'),
    mate: await person('Mara'),
    viewer: await person('Vito'),
  };
  const teamA = await createTeam(server.ctx, {
    owner: users.owner,
    name: 'Lists',
    alias: 'lists-a',
  });
  for (const [user, role] of [
    [users.admin, 'admin'],
    [users.uploader, 'uploader'],
    [users.mate, 'uploader'],
    [users.viewer, 'viewer'],
  ] as const) {
    await addMember(server.ctx, { teamId: teamA.id, user, role });
  }
  const creators = [users.owner, users.admin, users.uploader, users.mate];
  const taggable = [users.viewer, users.mate, users.uploader];
  for (let i = 0; i < 45; i++) {
    await store({
      teamId: teamA.id,
      creator: creators[i % 4] ?? users.owner,
      mode: i % 3 === 0 ? 'collaborative' : 'owned',
      updatedAt: BASE + Math.floor(i / 3) * 60_000,
      tags: taggable.filter((_, t) => (i + t) % (t + 2) === 0),
    });
  }

  const get = async (url: string, as: UserRow = users.owner) =>
    server.app.inject({
      url: `/api${url}`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
    });
  const walk = async (url: string, as: UserRow = users.owner, limit = 20) => {
    const seen: Collection[] = [];
    let lastKey: string | null = null;
    do {
      const sep = url.includes('?') ? '&' : '?';
      const key: string = lastKey ? `&lastKey=${lastKey}` : '';
      const res = await get(`${url}${sep}limit=${limit}${key}`, as);
      expect(res.statusCode, res.body).toBe(200);
      const page = collectionListResponseSchema.parse(res.json());
      expect(page.collections.length).toBeLessThanOrEqual(limit);
      if (page.pagination.lastKey) expect(page.collections).toHaveLength(limit);
      seen.push(...page.collections);
      lastKey = page.pagination.lastKey;
    } while (lastKey);
    return seen;
  };
  const ids = async (url: string, as: UserRow = users.owner, limit = 20) =>
    (await walk(url, as, limit)).map((c) => c.collectionId);
  const inA = () => stored.filter((s) => s.teamId === teamA.id);
  return { server, clock, users, teamA, stored, person, store, get, walk, ids, inA };
}
