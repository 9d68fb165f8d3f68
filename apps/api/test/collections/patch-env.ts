import { collectionSchema, type Collection } from '@raccolta/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CollectionRow } from '../../src/db/rows.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { createCollection, type StoredCollection } from './world.js';

export interface PatchEnv {
  server: TestServer;
  clock: { now: number };
  users: Record<'owner' | 'admin' | 'uploader' | 'viewer' | 'mate', UserRow>;
  team: { id: string; alias: string | null };
  person: (nickname: string) => Promise<UserRow>;
  /** A collection named "Original", owned by the owner unless said otherwise, updated now. */
  collection: (input: {
    creator?: UserRow;
    tags?: UserRow[];
    description?: string;
  }) => Promise<StoredCollection>;
  /** PATCH as the admin unless said otherwise, a second after the previous call. */
  patch: (id: string, ops: unknown, as?: UserRow) => Promise<LightMyRequestResponse>;
  /** The same, expecting 200; the collection answered. */
  ok: (id: string, ops: unknown, as?: UserRow) => Promise<Collection>;
  row: (id: string) => Promise<CollectionRow>;
  tagRows: (
    id: string,
  ) => Promise<{ collection_id: string; user_id: string; team_id: string; updated_at: number }[]>;
}

/** The app on a clock the test moves, with a team of an owner, an admin, two uploaders and a viewer. */
export async function startPatchEnv(): Promise<PatchEnv> {
  const clock = { now: Date.UTC(2026, 4, 1, 8) };
  const server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { clock: () => clock.now });
  let people = 0;
  const person = (nickname: string) =>
    createUser(server.ctx, { email: `p${++people}@example.com`, nickname, password: null });
  const users = {
    owner: await person('Orsola'),
    admin: await person('Aldo'),
    uploader: await person('Ubaldo'),
    viewer: await person('Valeria'),
    mate: await person('Marta'),
  };
  const team = await createTeam(server.ctx, {
    owner: users.owner,
    name: 'Patch',
    alias: 'patch-team',
  });
  for (const [user, role] of [
    [users.admin, 'admin'],
    [users.uploader, 'uploader'],
    [users.viewer, 'viewer'],
    [users.mate, 'uploader'],
  ] as const) {
    await addMember(server.ctx, { teamId: team.id, user, role });
  }

  const collection: PatchEnv['collection'] = (input) =>
    createCollection(server.ctx, {
      teamId: team.id,
      creator: input.creator ?? users.owner,
      name: 'Original',
      description: input.description ?? null,
      updatedAt: clock.now,
      ...(input.tags ? { tags: input.tags } : {}),
    });
  const patch = async (id: string, ops: unknown, as: UserRow = users.admin) => {
    clock.now += 1000;
    return server.app.inject({
      method: 'PATCH',
      url: `/api/teams/${team.id}/collections/${id}`,
      payload: ops as object,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
    });
  };
  const ok = async (id: string, ops: unknown, as: UserRow = users.admin) => {
    const res = await patch(id, ops, as);
    expect(res.statusCode, res.body).toBe(200);
    return collectionSchema.parse(res.json());
  };
  const row = (id: string) =>
    server.ctx.db
      .selectFrom('collections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const tagRows = (id: string) =>
    server.ctx.db
      .selectFrom('collection_tags')
      .selectAll()
      .where('collection_id', '=', id)
      .orderBy('position')
      .execute();
  return { server, clock, users, team, person, collection, patch, ok, row, tagRows };
}
