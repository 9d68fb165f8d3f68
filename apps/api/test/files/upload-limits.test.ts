import type { FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorageRoot } from '../helpers/local-storage-root.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { filesClient } from './files-api.js';
import {
  buildFilesWorld,
  filesSnapshot,
  storedObjects,
  tempFiles,
  type FilesWorld,
} from './files-world.js';
import { HTML_PAGE, makePng } from './images.js';

const MAX_BYTES = 4096;

describe('upload limits', () => {
  let server: TestServer;
  let root: string;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_MAX: '100000',
      UPLOAD_MAX_FILE_BYTES: String(MAX_BYTES),
      UPLOAD_ALLOWED_TYPES: 'image/*,application/pdf',
    });
    root = localStorageRoot(server.config);
    world = await buildFilesWorld(server.ctx);
  });
  afterAll(() => server.close());

  /** Nothing of a refused upload is left: no row, no object, no temp file, nothing to sweep. */
  async function expectNothingStored(before: string) {
    expect(await filesSnapshot(server.ctx, root)).toBe(before);
    expect(await tempFiles(root)).toEqual([]);
    expect(await server.ctx.storage.sweepTemp(0)).toBe(0);
  }

  it('accepts a file of exactly the limit', async () => {
    const client = await filesClient(server, world.users.admin);
    const png = await makePng();
    const data = Buffer.concat([png, Buffer.alloc(MAX_BYTES - png.length)]);
    const res = await client.upload(world.team.id, world.collections.shared.id, {
      filename: 'exact.png',
      data,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<FileItem>().size).toBe(MAX_BYTES);
  });

  it('refuses one byte more with fileTooLarge (413), storing nothing', async () => {
    const client = await filesClient(server, world.users.admin);
    const png = await makePng();
    const before = await filesSnapshot(server.ctx, root);
    for (const size of [MAX_BYTES + 1, MAX_BYTES * 50]) {
      const data = Buffer.concat([png, Buffer.alloc(size - png.length)]);
      const res = await client.upload(world.team.id, world.collections.shared.id, {
        filename: 'big.png',
        data,
      });
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json()).toMatchObject({ errorCode: 'fileTooLarge' });
    }
    await expectNothingStored(before);
  });

  it('refuses a type outside UPLOAD_ALLOWED_TYPES with fileTypeNotAllowed (415), storing nothing', async () => {
    const client = await filesClient(server, world.users.admin);
    const before = await filesSnapshot(server.ctx, root);
    for (const [filename, data] of [
      ['page.png', HTML_PAGE],
      ['notes.pdf', 'plain text claiming to be a PDF'],
      ['blob.jpg', Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0x80])],
    ] as const) {
      const res = await client.upload(world.team.id, world.collections.shared.id, {
        filename,
        data,
        contentType: 'image/png',
      });
      expect(res.statusCode, `${filename}: ${res.body}`).toBe(415);
      expect(res.json()).toMatchObject({ errorCode: 'fileTypeNotAllowed' });
    }
    await expectNothingStored(before);
  });

  it('accepts the allowed families', async () => {
    const client = await filesClient(server, world.users.admin);
    const pdf = await client.upload(world.team.id, world.collections.shared.id, {
      filename: 'doc.pdf',
      data: '%PDF-1.4\n',
    });
    expect(pdf.statusCode, pdf.body).toBe(201);
    expect(pdf.json<FileItem>().contentType).toBe('application/pdf');
  });

  it('keeps the storage root to what the rows point at', async () => {
    const rows = await server.ctx.db
      .selectFrom('files')
      .select(['storage_key', 'thumbnail_key', 'preview_key'])
      .execute();
    const keys = rows
      .flatMap((r) => [r.storage_key, r.thumbnail_key, r.preview_key])
      .filter((k): k is string => k !== null)
      .sort();
    expect(await storedObjects(root)).toEqual(keys);
  });
});
