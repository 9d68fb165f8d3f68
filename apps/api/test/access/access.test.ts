import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireAccess, type TeamAccess } from '../../src/access/access.js';
import { can } from '../../src/access/rules.js';
import { createCollection } from '../../src/collections/collections.service.js';
import { newId } from '../../src/db/ids.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The team as any active member reads it: the rule every member passes. */
const anyone = (_: TeamAccess) => true;

describe('requireAccess', () => {
  let server: TestServer;
  let owner: UserRow;
  let team: { id: string; alias: string | null };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server.ctx, { email: 'access-owner@example.com' });
    team = await createTeam(server.ctx, { owner, alias: 'access-team' });
  });
  afterAll(() => server.close());

  const rowsOf = async (teamId: string, userId: string) => ({
    team: await server.ctx.db
      .selectFrom('teams')
      .selectAll()
      .where('id', '=', teamId)
      .executeTakeFirstOrThrow(),
    member: await server.ctx.db
      .selectFrom('team_members')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  });

  it('gives the team and the whole membership row, by id or alias, in any case', async () => {
    const expected = await rowsOf(team.id, owner.id);
    for (const ref of [team.id, team.id.toUpperCase(), 'access-team', ' Access-Team ']) {
      const access = await requireAccess(server.ctx, owner, { team: ref }, anyone);
      expect({ ...access.team }).toEqual({ ...expected.team });
      expect({ ...access.member }).toEqual({ ...expected.member });
      expect(access.role).toBe('owner');
      expect(access.actor).toBe(owner);
    }
  });

  it('is notFound for a team that does not exist and for anyone but an active member', async () => {
    await expect(
      requireAccess(server.ctx, owner, { team: '01a2177f-0000-7000-8000-000000000000' }, anyone),
    ).rejects.toMatchObject({ errorCode: 'notFound' });
    await expect(
      requireAccess(server.ctx, owner, { team: 'no-such-alias' }, anyone),
    ).rejects.toMatchObject({
      errorCode: 'notFound',
    });
    const outsider = await createUser(server.ctx, { email: 'access-outsider@example.com' });
    await expect(
      requireAccess(server.ctx, outsider, { team: team.id }, anyone),
    ).rejects.toMatchObject({
      errorCode: 'notFound',
    });
    for (const [i, status] of (['invited', 'disabled', 'left', 'banned'] as const).entries()) {
      const user = await createUser(server.ctx, { email: `access-${status}@example.com` });
      await addMember(server.ctx, {
        teamId: team.id,
        user,
        role: 'uploader',
        status,
        nickname: `Access ${i}`,
      });
      await expect(
        requireAccess(server.ctx, user, { team: team.id }, anyone),
      ).rejects.toMatchObject({
        errorCode: 'notFound',
      });
    }
    const viewer = await createUser(server.ctx, { email: 'access-viewer@example.com' });
    await addMember(server.ctx, { teamId: team.id, user: viewer, role: 'viewer', nickname: 'V' });
    const access = await requireAccess(server.ctx, viewer, { team: 'access-team' }, anyone);
    expect(access.role).toBe('viewer');
    expect({ ...access.member }).toEqual({ ...(await rowsOf(team.id, viewer.id)).member });
  });

  it('answers 403 when the rule refuses, or 404 when asked to say nothing', async () => {
    const viewer = await createUser(server.ctx, { email: 'access-rule-viewer@example.com' });
    await addMember(server.ctx, { teamId: team.id, user: viewer, role: 'viewer', nickname: 'RV' });
    await expect(
      requireAccess(server.ctx, viewer, { team: team.id }, can.manageTrash),
    ).rejects.toMatchObject({ errorCode: 'forbidden' });
    await expect(
      requireAccess(server.ctx, viewer, { team: team.id }, can.manageTrash, {
        refusal: 'notFound',
      }),
    ).rejects.toMatchObject({ errorCode: 'notFound' });
    const allowed = await requireAccess(server.ctx, owner, { team: team.id }, can.manageTrash);
    expect(allowed.team.id).toBe(team.id);
  });

  describe('objects of the team', () => {
    let uploader: UserRow;
    let other: UserRow;
    let privateOfOwner: string;
    let sharedOfOwner: string;
    let foreignCollection: string;

    beforeAll(async () => {
      uploader = await createUser(server.ctx, { email: 'access-uploader@example.com' });
      other = await createUser(server.ctx, { email: 'access-other-owner@example.com' });
      await addMember(server.ctx, {
        teamId: team.id,
        user: uploader,
        role: 'uploader',
        nickname: 'U',
      });
      privateOfOwner = (
        await createCollection(server.ctx, owner, team.id, {
          name: 'Private',
          description: undefined,
          mode: 'owned',
        })
      ).collectionId;
      sharedOfOwner = (
        await createCollection(server.ctx, owner, team.id, {
          name: 'Shared',
          description: undefined,
          mode: 'collaborative',
        })
      ).collectionId;
      const otherTeam = await createTeam(server.ctx, { owner: other, alias: 'access-other' });
      foreignCollection = (
        await createCollection(server.ctx, other, otherTeam.id, {
          name: 'Theirs',
          description: undefined,
          mode: 'owned',
        })
      ).collectionId;
    });

    it('gives a collection the caller sees, and 404 for one it may not see or of another team', async () => {
      const seen = await requireAccess(
        server.ctx,
        uploader,
        { team: team.id, collection: sharedOfOwner },
        can.uploadFile,
      );
      expect(seen.collection.id).toBe(sharedOfOwner);
      for (const collection of [privateOfOwner, foreignCollection, 'not-a-uuid', newId()]) {
        await expect(
          requireAccess(server.ctx, uploader, { team: team.id, collection }, can.readFiles),
        ).rejects.toMatchObject({ errorCode: 'notFound' });
      }
      // The owner sees the private one, but a collection of another team stays 404.
      await expect(
        requireAccess(
          server.ctx,
          owner,
          { team: team.id, collection: foreignCollection },
          can.readFiles,
        ),
      ).rejects.toMatchObject({ errorCode: 'notFound' });
      // Seen, but not the uploader's to rename: 403.
      await expect(
        requireAccess(
          server.ctx,
          uploader,
          { team: team.id, collection: sharedOfOwner },
          can.updateCollection,
        ),
      ).rejects.toMatchObject({ errorCode: 'forbidden' });
    });

    it("gives the caller's own upload and download only", async () => {
      const now = Date.now();
      const uploadId = newId();
      await server.ctx.db
        .insertInto('uploads')
        .values({
          id: uploadId,
          team_id: team.id,
          collection_id: sharedOfOwner,
          created_by: uploader.id,
          file_name: 'a.jpg',
          size: 1,
          status: 'uploading',
          created_at: now,
          expires_at: now + 60_000,
        })
        .execute();
      const own = await requireAccess(
        server.ctx,
        uploader,
        { team: team.id, collection: sharedOfOwner, upload: uploadId },
        can.uploadFile,
      );
      expect(own.upload.id).toBe(uploadId);
      await expect(
        requireAccess(
          server.ctx,
          owner,
          { team: team.id, collection: sharedOfOwner, upload: uploadId },
          can.uploadFile,
        ),
      ).rejects.toMatchObject({ errorCode: 'notFound' });
      await expect(
        requireAccess(
          server.ctx,
          uploader,
          { team: team.id, collection: privateOfOwner, upload: uploadId },
          can.uploadFile,
        ),
      ).rejects.toMatchObject({ errorCode: 'notFound' });

      const downloadId = newId();
      await server.ctx.db
        .insertInto('downloads')
        .values({
          id: downloadId,
          team_id: team.id,
          collection_id: privateOfOwner,
          requested_by: owner.id,
          collection_name: 'Private',
          prefix: null,
          file_ids: null,
          status: 'inProgress',
          total_parts: null,
          file_count: 1,
          total_bytes: 1,
          error: null,
          created_at: now,
          updated_at: now,
          ready_at: null,
          expires_at: null,
        })
        .execute();
      const mine = await requireAccess(
        server.ctx,
        owner,
        { team: team.id, download: downloadId },
        can.readDownload,
      );
      expect(mine.download.id).toBe(downloadId);
      expect(mine.collection.id).toBe(privateOfOwner);
      for (const [user, ref] of [
        [uploader, team.id],
        [other, team.id],
        [owner, 'access-other'],
      ] as const) {
        await expect(
          requireAccess(server.ctx, user, { team: ref, download: downloadId }, can.readDownload),
        ).rejects.toMatchObject({ errorCode: 'notFound' });
      }
    });

    it('gives a member of the team, locked or not, and 404 for anyone outside it', async () => {
      const member = await requireAccess(
        server.ctx,
        owner,
        { team: team.id, member: uploader.id },
        can.removeMember,
      );
      expect(member.target.user_id).toBe(uploader.id);
      await expect(
        requireAccess(server.ctx, uploader, { team: team.id, member: owner.id }, can.removeMember),
      ).rejects.toMatchObject({ errorCode: 'forbidden' });
      for (const id of [other.id, 'nobody', newId()]) {
        await expect(
          server.ctx.db.transaction().execute((trx) =>
            requireAccess(server.ctx, owner, { team: team.id, member: id }, can.anyMember, {
              db: trx,
              lock: true,
            }),
          ),
        ).rejects.toMatchObject({ errorCode: 'notFound' });
      }
    });
  });
});
