import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionRow } from '../../src/db/rows.js';
import { GUEST_OPEN_FAILURES_PER_ADDRESS } from '../../src/links/guest.service.js';
import { linkTokenHash } from '../../src/links/link-tokens.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { nextAddress } from '../files/files-api.js';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { makePng } from '../files/images.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { metadataHeader, tusClient } from '../uploads/tus-client.js';

/*
 * Upload links for guests (issue #36): managing links, opening them, uploading through them with
 * tus, the caps under parallel requests, and what a guest may see. Runs on SQLite and, with
 * RACCOLTA_TEST_DB=postgres, on PostgreSQL.
 */

interface Link {
  linkId: string;
  url: string;
  enabled: boolean;
  fileCount: number;
  byteCount: number;
  hasPassword: boolean;
  acceptedTypes: string[];
  requireName: boolean;
  requireEmail: boolean;
}

interface Session {
  guestToken: string;
  guestId: string;
  link: { collectionName: string; teamName: string; requirePassword: boolean };
}

describe('upload links for guests', () => {
  let server: TestServer;
  let world: FilesWorld;
  let collection: CollectionRow;

  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_MAX: '100000',
      UPLOAD_ALLOWED_TYPES: 'image/*,application/pdf',
    });
    world = await buildFilesWorld(server.ctx, { objects: false });
    collection = world.collections.shared;
  });
  afterAll(() => server.close());

  const linksUrl = (c: CollectionRow = collection) =>
    `/api/teams/${c.team_id}/collections/${c.id}/links`;

  async function asMember(
    user: UserRow,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> {
    return server.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, user)}` },
      remoteAddress: nextAddress(),
      ...(payload ? { payload } : {}),
    });
  }

  async function createLink(payload: object = {}, c: CollectionRow = collection): Promise<Link> {
    const res = await asMember(world.users.owner, 'POST', linksUrl(c), payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Link>();
  }

  const tokenOf = (link: Link) => link.url.split('/').pop() ?? '';

  function open(token: string, payload: object = {}, address = nextAddress()) {
    return server.app.inject({
      method: 'POST',
      url: `/api/guest/links/${token}/open`,
      payload,
      remoteAddress: address,
    });
  }

  async function session(link: Link, payload: object = {}): Promise<Session> {
    const res = await open(tokenOf(link), payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Session>();
  }

  function guestTus(guest: Session) {
    const headers = { authorization: `Bearer ${guest.guestToken}`, 'tus-resumable': '1.0.0' };
    const inject = (
      method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
      url: string,
      extra = {},
      body?: Buffer,
    ) =>
      server.app.inject({
        method,
        url,
        headers: { ...headers, ...extra },
        remoteAddress: nextAddress(),
        ...(body ? { payload: body } : {}),
      });
    return {
      create: (length: number, meta: Record<string, string> = { guestName: 'Anna' }) =>
        inject('POST', '/api/guest/uploads', {
          'upload-length': String(length),
          'upload-metadata': metadataHeader({ filename: 'photo.png', ...meta }),
        }),
      patch: (url: string, offset: number, body: Buffer) =>
        inject(
          'PATCH',
          url,
          { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          body,
        ),
      head: (url: string) => inject('HEAD', url),
      async upload(data: Buffer, meta?: Record<string, string>) {
        const created = await this.create(data.length, meta);
        expect(created.statusCode, created.body).toBe(201);
        const url = String(created.headers.location);
        return { url, last: await this.patch(url, 0, data) };
      },
      list: () =>
        server.app.inject({
          method: 'GET',
          url: '/api/guest/files',
          headers,
          remoteAddress: nextAddress(),
        }),
      remove: (fileId: string) =>
        server.app.inject({
          method: 'DELETE',
          url: `/api/guest/files/${fileId}`,
          headers,
          remoteAddress: nextAddress(),
        }),
    };
  }

  const idOf = (url: string) => url.split('/').pop() ?? '';

  describe('managing links', () => {
    it('makes a link with a 256-bit token stored only hashed and encrypted, with defaults', async () => {
      const link = await createLink({ label: 'Party' });
      expect(link).toMatchObject({
        enabled: true,
        hasPassword: false,
        requireName: true,
        requireEmail: false,
        fileCount: 0,
        acceptedTypes: ['image/*', 'application/pdf'],
      });
      const token = tokenOf(link);
      expect(link.url).toBe(`${server.config.publicUrl}/upload/l/${token}`);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      const row = await server.ctx.db
        .selectFrom('upload_links')
        .selectAll()
        .where('id', '=', link.linkId)
        .executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(linkTokenHash(token));
      expect(JSON.stringify(row)).not.toContain(token);
    });

    it('lists, disables, re-enables, changes and deletes', async () => {
      const link = await createLink({ password: 'open sesame', maxFiles: 5 });
      expect(link.hasPassword).toBe(true);
      const list = await asMember(world.users.admin, 'GET', linksUrl());
      expect(list.statusCode).toBe(200);
      expect(list.json<{ links: Link[] }>().links.map((l) => l.linkId)).toContain(link.linkId);

      const url = `${linksUrl()}/${link.linkId}`;
      const disabled = await asMember(world.users.owner, 'PATCH', url, { enabled: false });
      expect(disabled.json<Link>().enabled).toBe(false);
      const changed = await asMember(world.users.owner, 'PATCH', url, {
        enabled: true,
        password: null,
        acceptedTypes: ['image/png'],
      });
      expect(changed.json<Link>()).toMatchObject({
        enabled: true,
        hasPassword: false,
        acceptedTypes: ['image/png'],
      });
      expect((await asMember(world.users.owner, 'DELETE', url)).statusCode).toBe(204);
      expect((await asMember(world.users.owner, 'DELETE', url)).statusCode).toBe(404);
    });

    it('refuses accepted types outside the allowed ones and a past expiry', async () => {
      for (const payload of [
        { acceptedTypes: ['text/plain'] },
        { acceptedTypes: ['*/*'] },
        { expiresAt: new Date(Date.now() - 1000).toISOString() },
      ]) {
        const res = await asMember(world.users.owner, 'POST', linksUrl(), payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ errorCode: 'invalidInput' });
      }
    });
  });

  describe('opening a link', () => {
    it('answers what the page shows and a guest token', async () => {
      const guest = await session(await createLink());
      expect(guest.link).toMatchObject({
        collectionName: collection.name,
        requirePassword: false,
      });
      expect(guest.guestId).toMatch(/^[0-9a-f-]{36}$/);
      // The browser keeps its guest id across visits.
      const again = await session(await createLink(), { guestId: guest.guestId });
      expect(again.guestId).toBe(guest.guestId);
    });

    it('answers unknown, disabled, expired and deleted links the same', async () => {
      const disabled = await createLink();
      await asMember(world.users.owner, 'PATCH', `${linksUrl()}/${disabled.linkId}`, {
        enabled: false,
      });
      const expired = await createLink();
      await server.ctx.db
        .updateTable('upload_links')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', expired.linkId)
        .execute();
      const deleted = await createLink();
      await asMember(world.users.owner, 'DELETE', `${linksUrl()}/${deleted.linkId}`);

      const answers = await Promise.all(
        ['A'.repeat(43), 'short', tokenOf(disabled), tokenOf(expired), tokenOf(deleted)].map(
          async (token) => {
            const res = await open(token);
            const { requestId: _, ...body } = res.json<Record<string, unknown>>();
            return { status: res.statusCode, body, headers: Object.keys(res.headers).sort() };
          },
        ),
      );
      expect(answers[0]?.status).toBe(404);
      expect(answers[0]?.body).toMatchObject({
        errorCode: 'uploadLinkNotFound',
      });
      for (const answer of answers) expect(answer).toEqual(answers[0]);
    });

    it('asks for the password, refuses a wrong one, opens with the right one', async () => {
      const link = await createLink({ password: 'open sesame' });
      const none = await open(tokenOf(link));
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ errorCode: 'uploadLinkPasswordRequired' });
      const wrong = await open(tokenOf(link), { password: 'guess' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ errorCode: 'wrongUploadLinkPassword' });
      const right = await open(tokenOf(link), { password: 'open sesame' });
      expect(right.statusCode).toBe(200);
      expect(right.json<Session>().link.requirePassword).toBe(true);
    });

    it('limits wrong passwords per link, from any address', async () => {
      const link = await createLink({ password: 'open sesame' });
      const wrong = await Promise.all(
        Array.from({ length: 25 }, () => open(tokenOf(link), { password: 'guess' })),
      );
      const statuses = wrong.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      // The right password is refused too until the window passes: no more checks.
      expect((await open(tokenOf(link), { password: 'open sesame' })).statusCode).toBe(429);
    });

    it('limits failed openings per address', async () => {
      const address = nextAddress();
      for (let i = 0; i < GUEST_OPEN_FAILURES_PER_ADDRESS; i++) {
        expect((await open('B'.repeat(43), {}, address)).statusCode).toBe(404);
      }
      expect((await open('B'.repeat(43), {}, address)).statusCode).toBe(429);
      const link = await createLink();
      expect((await open(tokenOf(link), {}, address)).statusCode).toBe(429);
      expect((await open(tokenOf(link), {}, nextAddress())).statusCode).toBe(200);
    });
  });

  describe('uploading as a guest', () => {
    it('stores the file with the link and the guest name, shown as a guest in the files API', async () => {
      const link = await createLink();
      const guest = guestTus(await session(link));
      const png = await makePng(16, 16);
      const { url, last } = await guest.upload(png, {
        guestName: 'Anna',
        guestEmail: 'anna@example.it',
      });
      expect(url).toMatch(/^\/api\/guest\/uploads\//);
      expect(last.statusCode, last.body).toBe(204);
      const file = await server.ctx.db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', idOf(url))
        .executeTakeFirstOrThrow();
      expect(file).toMatchObject({
        link_id: link.linkId,
        guest_name: 'Anna',
        guest_email: 'anna@example.it',
        uploaded_by: world.users.owner.id,
        collection_id: collection.id,
      });

      const filesUrl = `/api/teams/${collection.team_id}/collections/${collection.id}/files`;
      const byLink = await asMember(world.users.viewer, 'GET', `${filesUrl}?link=${link.linkId}`);
      expect(byLink.statusCode, byLink.body).toBe(200);
      const files = byLink.json<{ files: { fileId: string; guest: unknown }[] }>().files;
      expect(files.map((f) => f.fileId)).toEqual([file.id]);
      expect(files[0]?.guest).toEqual({
        linkId: link.linkId,
        name: 'Anna',
        email: 'anna@example.it',
      });
      const byGuest = await asMember(world.users.owner, 'GET', `${filesUrl}?guest=Anna`);
      expect(byGuest.json<{ files: { fileId: string }[] }>().files.map((f) => f.fileId)).toContain(
        file.id,
      );
      const nobody = await asMember(world.users.owner, 'GET', `${filesUrl}?guest=Zoe`);
      expect(nobody.json<{ files: unknown[] }>().files).toEqual([]);

      const listed = await asMember(world.users.owner, 'GET', linksUrl());
      const counted = listed.json<{ links: Link[] }>().links.find((l) => l.linkId === link.linkId);
      expect(counted).toMatchObject({ fileCount: 1, byteCount: png.length });
    });

    it('commits a guest upload in a team that requires a second factor its creator lacks', async () => {
      const link = await createLink();
      const guest = guestTus(await session(link));
      const setRequirement = (value: 0 | 1) =>
        server.ctx.db
          .updateTable('teams')
          .set({ require_second_factor: value })
          .where('id', '=', collection.team_id)
          .execute();
      await setRequirement(1);
      try {
        // The creator, an owner without a factor, is refused as a member meanwhile.
        const refused = await asMember(world.users.owner, 'GET', linksUrl());
        expect(refused.json<{ errorCode: string }>().errorCode).toBe(
          'secondFactorEnrolmentRequired',
        );
        const png = await makePng(12, 12);
        const created = await guest.create(png.length);
        expect(created.statusCode, created.body).toBe(201);
        const url = String(created.headers.location);
        const first = await guest.patch(url, 0, png.subarray(0, 40));
        expect(first.statusCode, first.body).toBe(204);
        const last = await guest.patch(url, 40, png.subarray(40));
        expect(last.statusCode, last.body).toBe(204);
        const file = await server.ctx.db
          .selectFrom('files')
          .select(['link_id', 'guest_name'])
          .where('id', '=', idOf(url))
          .executeTakeFirst();
        expect(file).toEqual({ link_id: link.linkId, guest_name: 'Anna' });
      } finally {
        await setRequirement(0);
      }
    });

    it('asks for the name and the e-mail the link requires', async () => {
      const link = await createLink({ requireEmail: true });
      const guest = guestTus(await session(link));
      const noName = await guest.create(10, { guestEmail: 'anna@example.it' });
      expect(noName.statusCode).toBe(400);
      const noEmail = await guest.create(10, { guestName: 'Anna' });
      expect(noEmail.json()).toMatchObject({ errorCode: 'emailRequired' });
      const badEmail = await guest.create(10, { guestName: 'Anna', guestEmail: 'nope' });
      expect(badEmail.json()).toMatchObject({ errorCode: 'invalidEmail' });
    });

    it('refuses a sniffed type the link does not accept, and gives the place back', async () => {
      const link = await createLink({ acceptedTypes: ['application/pdf'], maxFiles: 1 });
      const guest = guestTus(await session(link));
      const { last } = await guest.upload(await makePng(8, 8));
      expect(last.statusCode).toBe(415);
      expect(last.json()).toMatchObject({ errorCode: 'fileTypeNotAllowed' });
      const row = await server.ctx.db
        .selectFrom('upload_links')
        .select(['reserved_files', 'reserved_bytes'])
        .where('id', '=', link.linkId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ reserved_files: 0, reserved_bytes: 0 });
    });

    it('lets exactly maxFiles of 10 parallel creations through', async () => {
      const link = await createLink({ maxFiles: 3 });
      const guest = guestTus(await session(link));
      const answers = await Promise.all(Array.from({ length: 10 }, () => guest.create(100)));
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s === 409)).toHaveLength(7);
      expect(answers.find((r) => r.statusCode === 409)?.json()).toMatchObject({
        errorCode: 'uploadLinkFull',
      });
    });

    it('lets exactly maxBytes through under parallel creations', async () => {
      const link = await createLink({ maxBytes: 1000 });
      const guest = guestTus(await session(link));
      const answers = await Promise.all(Array.from({ length: 10 }, () => guest.create(300)));
      expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(3);
    });

    it('refuses every tus request once the link is disabled or expired mid-upload', async () => {
      const link = await createLink();
      const guest = guestTus(await session(link));
      const png = await makePng(32, 32);
      const created = await guest.create(png.length);
      const url = String(created.headers.location);
      const half = Math.floor(png.length / 2);
      expect((await guest.patch(url, 0, png.subarray(0, half))).statusCode).toBe(204);

      const linkUrl = `${linksUrl()}/${link.linkId}`;
      await asMember(world.users.owner, 'PATCH', linkUrl, { enabled: false });
      const refused = await guest.patch(url, half, png.subarray(half));
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ errorCode: 'uploadLinkNotFound' });
      expect((await guest.head(url)).statusCode).toBe(404);

      await asMember(world.users.owner, 'PATCH', linkUrl, { enabled: true });
      await server.ctx.db
        .updateTable('upload_links')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', link.linkId)
        .execute();
      const expired = await guest.patch(url, half, png.subarray(half));
      expect(expired.statusCode).toBe(404);
      expect(expired.json()).toMatchObject({ errorCode: 'uploadLinkNotFound' });
      expect(
        await server.ctx.db
          .selectFrom('files')
          .select('id')
          .where('id', '=', idOf(url))
          .executeTakeFirst(),
      ).toBeUndefined();
    });

    it("reaches a guest's upload only with that guest's token", async () => {
      const link = await createLink();
      const anna = guestTus(await session(link));
      const created = await anna.create(100);
      const url = String(created.headers.location);
      const bruno = guestTus(await session(link));
      expect((await bruno.head(url)).statusCode).toBe(404);
      // Not through the members' upload URLs either, not even by the link's creator.
      const tus = await tusClient(server, world.users.owner);
      const memberUrl = `/api/teams/${collection.team_id}/collections/${collection.id}/uploads/${idOf(url)}`;
      expect((await tus.head(memberUrl)).statusCode).toBe(404);
      const forged = await server.app.inject({
        method: 'HEAD',
        url,
        headers: { authorization: 'Bearer forged.token', 'tus-resumable': '1.0.0' },
        remoteAddress: nextAddress(),
      });
      expect(forged.statusCode).toBe(401);
    });
  });

  describe("a guest's own files", () => {
    it('lists and deletes only their own, within an hour', async () => {
      const link = await createLink();
      const annaSession = await session(link);
      const anna = guestTus(annaSession);
      const bruno = guestTus(await session(link));
      const a1 = idOf((await anna.upload(await makePng(8, 9))).url);
      const a2 = idOf((await anna.upload(await makePng(9, 8))).url);
      const b1 = idOf((await bruno.upload(await makePng(7, 7), { guestName: 'Bruno' })).url);

      const annaFiles = (await anna.list()).json<{ files: { fileId: string }[] }>().files;
      expect(annaFiles.map((f) => f.fileId).sort()).toEqual([a1, a2].sort());
      const brunoList = await bruno.list();
      expect(brunoList.body).not.toContain('Anna');
      expect(brunoList.json<{ files: { fileId: string }[] }>().files.map((f) => f.fileId)).toEqual([
        b1,
      ]);

      expect((await bruno.remove(a1)).statusCode).toBe(404);
      expect((await anna.remove(a1)).statusCode).toBe(204);
      await server.ctx.db
        .updateTable('files')
        .set({ created_at: Date.now() - 61 * 60 * 1000 })
        .where('id', '=', a2)
        .execute();
      expect((await anna.remove(a2)).statusCode).toBe(404);
      const left = await server.ctx.db
        .selectFrom('files')
        .select('id')
        .where('link_id', '=', link.linkId)
        .execute();
      expect(left.map((r) => r.id).sort()).toEqual([a2, b1].sort());

      // The same browser, back later: its guest id brings its files back.
      const back = guestTus(await session(link, { guestId: annaSession.guestId }));
      expect(
        (await back.list()).json<{ files: { fileId: string }[] }>().files.map((f) => f.fileId),
      ).toEqual([a2]);
    });

    it('stops working for a guest once the link is disabled', async () => {
      const link = await createLink();
      const guest = guestTus(await session(link));
      await asMember(world.users.owner, 'PATCH', `${linksUrl()}/${link.linkId}`, {
        enabled: false,
      });
      const res = await guest.list();
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ errorCode: 'uploadLinkNotFound' });
    });

    it('refuses a missing or forged guest token', async () => {
      const none = await server.app.inject({ method: 'GET', url: '/api/guest/files' });
      expect(none.statusCode).toBe(401);
      const forged = await server.app.inject({
        method: 'GET',
        url: '/api/guest/files',
        headers: { authorization: 'Bearer abc.def' },
      });
      expect(forged.json()).toMatchObject({ errorCode: 'invalidAuthorization' });
    });
  });
});
