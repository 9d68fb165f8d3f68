import { FILE_NAME_MAX_LENGTH, type FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../../src/storage/testing/helpers.js';
import { localStorageRoot } from '../helpers/local-storage-root.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { filesClient, injectPath } from './files-api.js';
import {
  buildFilesWorld,
  createCollection,
  filesSnapshot,
  sha256,
  storedObjects,
  tempFiles,
  type FilesWorld,
} from './files-world.js';
import { HTML_PAGE, makePng, SVG_WITH_SCRIPT } from './images.js';

describe('uploading a file', () => {
  let server: TestServer;
  let root: string;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
    root = localStorageRoot(server.config);
    world = await buildFilesWorld(server.ctx);
  });
  afterAll(() => server.close());

  const fileRow = (fileId: string) =>
    server.ctx.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
  const collectionRow = (id: string) =>
    server.ctx.db
      .selectFrom('collections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('stores the bytes, sniffs the type and moves the collection, in one go', async () => {
    const collection = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.admin.id,
      mode: 'collaborative',
      at: 1_000,
    });
    await server.ctx.db
      .insertInto('collection_tags')
      .values({
        collection_id: collection.id,
        user_id: world.users.viewer.id,
        team_id: world.team.id,
        updated_at: 1_000,
        position: 0,
      })
      .execute();
    const png = await makePng(16, 16);
    const client = await filesClient(server, world.users.uploader);
    const before = Date.now();
    // The client claims a text file; the bytes say PNG.
    const res = await client.upload(world.team.id, collection.id, {
      filename: 'photo.txt',
      data: png,
      contentType: 'text/plain',
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<FileItem>();
    expect(file).toMatchObject({
      teamId: world.team.id,
      collectionId: collection.id,
      name: 'photo.txt',
      originalName: 'photo.txt',
      contentType: 'image/png',
      size: png.length,
      sha256: sha256(png),
      uploadedBy: world.users.uploader.id,
      uploader: { userId: world.users.uploader.id, nickname: expect.any(String) as string },
      thumbnailUrl: null,
      previewUrl: null,
      renditionStatus: 'pending',
      // The uploader has read what it uploaded.
      readAt: file.createdAt,
    });

    const row = await fileRow(file.fileId);
    expect(row.storage_key).toBe(
      `teams/${world.team.id}/collections/${collection.id}/${file.fileId}/original`,
    );
    expect(row.rendition_status).toBe('pending');
    expect(row.sha256).toBe(sha256(png));
    expect(await readAll(await server.ctx.storage.get(row.storage_key))).toEqual(png);
    expect(row.updated_at).toBeGreaterThanOrEqual(before);

    const moved = await collectionRow(collection.id);
    expect(moved).toMatchObject({
      files_count: 1,
      status: 'ready',
      updated_at: row.updated_at,
      updated_by: world.users.uploader.id,
    });
    const tag = await server.ctx.db
      .selectFrom('collection_tags')
      .select('updated_at')
      .where('collection_id', '=', collection.id)
      .executeTakeFirstOrThrow();
    expect(tag.updated_at).toBe(row.updated_at);

    const job = await server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', 'files.renditions')
      .where('payload', 'like', `%${file.fileId}%`)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toEqual({ fileId: file.fileId });
    expect(job.max_attempts).toBe(3);
  });

  it('adds to the count of a collection that has files', async () => {
    const client = await filesClient(server, world.users.owner);
    const res = await client.upload(world.team.id, world.collections.owned.id, {
      filename: 'notes.md',
      data: '# Notes\n',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<FileItem>()).toMatchObject({ contentType: 'text/plain', name: 'notes.md' });
    expect((await collectionRow(world.collections.owned.id)).files_count).toBe(2);
    // Not an image: no rendition job.
    expect((await fileRow(res.json<FileItem>().fileId)).rendition_status).toBe('none');
    const jobs = await server.ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('payload', 'like', `%${res.json<FileItem>().fileId}%`)
      .execute();
    expect(jobs).toEqual([]);
  });

  it('makes hostile names safe to show, and keeps them out of the storage key', async () => {
    const client = await filesClient(server, world.users.admin);
    // originalName keeps the path but never a control, bidi or zero-width character.
    const cases = [
      { sent: '../../../etc/passwd', name: 'passwd', original: '../../../etc/passwd' },
      { sent: '..\\..\\boot.ini', name: 'boot.ini', original: '..\\..\\boot.ini' },
      { sent: 'inv\u0001oice\u0007\u009b.pdf', name: 'invoice.pdf', original: 'invoice.pdf' },
      { sent: 'report_\u202Egnp.exe', name: 'report_gnp.exe', original: 'report_gnp.exe' },
      { sent: '\u2067isolated\u2069\u200B.txt', name: 'isolated.txt', original: 'isolated.txt' },
      { sent: '.hidden', name: 'hidden', original: '.hidden' },
      { sent: '\u202E', name: 'file.txt', original: '' },
      { sent: 'città.txt', name: 'città.txt', original: 'città.txt' },
    ];
    for (const { sent, name, original } of cases) {
      const res = await client.upload(world.team.id, world.collections.shared.id, {
        filename: sent,
        data: 'hello',
      });
      expect(res.statusCode, `${sent}: ${res.body}`).toBe(201);
      const file = res.json<FileItem>();
      expect(file.name, sent).toBe(name);
      expect(file.originalName, sent).toBe(original);
      const row = await fileRow(file.fileId);
      expect(row.storage_key).toMatch(
        /^teams\/[0-9a-f-]{36}\/collections\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/original$/,
      );
    }
  });

  it('shortens a 300-character name keeping the extension', async () => {
    const client = await filesClient(server, world.users.admin);
    const sent = `${'n'.repeat(296)}.pdf`;
    const res = await client.upload(world.team.id, world.collections.shared.id, {
      filename: sent,
      data: '%PDF-1.4\n%âãÏÓ\n',
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<FileItem>();
    expect(file.contentType).toBe('application/pdf');
    expect(Array.from(file.name)).toHaveLength(FILE_NAME_MAX_LENGTH);
    expect(file.name.endsWith('n.pdf')).toBe(true);
    expect(Array.from(file.originalName)).toHaveLength(FILE_NAME_MAX_LENGTH);
  });

  it('stores an SVG with a script as image/svg+xml, never rendered, downloaded as a sandboxed attachment', async () => {
    const client = await filesClient(server, world.users.admin);
    const res = await client.upload(world.team.id, world.collections.shared.id, {
      filename: 'logo.svg',
      data: SVG_WITH_SCRIPT,
      contentType: 'image/png',
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<FileItem>();
    expect(file.contentType).toBe('image/svg+xml');
    expect((await fileRow(file.fileId)).rendition_status).toBe('none');

    const link = await client.get(
      `/teams/${world.team.id}/collections/${world.collections.shared.id}/files/${file.fileId}/download`,
    );
    expect(link.statusCode, link.body).toBe(200);
    const served = await server.app.inject(injectPath(link.json<{ url: string }>().url));
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['content-disposition']).toBe('attachment; filename="logo.svg"');
    expect(served.headers['content-security-policy']).toBe('sandbox');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.body).toBe(SVG_WITH_SCRIPT);
  });

  it('stores an HTML page as text/html, downloaded as an attachment', async () => {
    const client = await filesClient(server, world.users.admin);
    const res = await client.upload(world.team.id, world.collections.shared.id, {
      filename: 'page.html',
      data: HTML_PAGE,
      contentType: 'text/plain',
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<FileItem>();
    expect(file.contentType).toBe('text/html');
    const link = await client.get(
      `/teams/${world.team.id}/collections/${world.collections.shared.id}/files/${file.fileId}/download`,
    );
    const served = await server.app.inject(injectPath(link.json<{ url: string }>().url));
    expect(served.headers['content-type']).toBe('text/html');
    expect(served.headers['content-disposition']).toBe('attachment; filename="page.html"');
    expect(served.headers['content-security-policy']).toBe('sandbox');
  });

  it('refuses a body without a part named file, or not a form, with invalidInput, storing nothing', async () => {
    const client = await filesClient(server, world.users.admin);
    const before = await filesSnapshot(server.ctx, root);
    const collectionId = world.collections.shared.id;
    for (const file of [
      { parts: [{ name: 'note', data: 'just a field' }] },
      { parts: [{ name: 'attachment', filename: 'a.txt', data: 'misnamed part' }] },
      { parts: [] },
    ]) {
      const res = await client.upload(world.team.id, collectionId, file);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
    const url = `/api/teams/${world.team.id}/collections/${collectionId}/files`;
    for (const [contentType, payload] of [
      ['application/json', JSON.stringify({ file: 'not multipart' })],
      ['application/octet-stream', 'raw bytes'],
      ['text/plain', 'raw text'],
      // Malformed: no boundary in the body, none in the header, a part that never ends.
      ['multipart/form-data; boundary=b', 'no boundary here'],
      ['multipart/form-data', '--b\r\n'],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\ncut off',
      ],
    ]) {
      const res = await server.app.inject({
        method: 'POST',
        url,
        headers: { ...client.headers, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, `${contentType}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
    expect(await filesSnapshot(server.ctx, root)).toBe(before);
    expect(await tempFiles(root)).toEqual([]);
  });

  it('takes the file part after other fields', async () => {
    const client = await filesClient(server, world.users.admin);
    const res = await client.upload(world.team.id, world.collections.shared.id, {
      parts: [
        { name: 'comment', data: 'first a field' },
        { name: 'file', filename: 'late.txt', contentType: 'text/plain', data: 'then the file' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<FileItem>()).toMatchObject({ name: 'late.txt', size: 13 });
  });

  it('leaves nothing but the files it accepted under the storage root', async () => {
    const rows = await server.ctx.db
      .selectFrom('files')
      .select(['storage_key', 'thumbnail_key', 'preview_key'])
      .execute();
    const expected = rows
      .flatMap((r) => [r.storage_key, r.thumbnail_key, r.preview_key])
      .filter((k): k is string => k !== null)
      .sort();
    expect(await storedObjects(root)).toEqual(expected);
  });
});
