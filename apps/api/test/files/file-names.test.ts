import type { FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../../src/storage/testing/helpers.js';
import { archiveDir, downloadsClient } from '../downloads/downloads-env.js';
import { inspectZip } from '../downloads/zip-check.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { tusClient } from '../uploads/tus-client.js';
import { filesClient, injectPath, type FilesClient } from './files-api.js';
import {
  buildFilesWorld,
  createCollection,
  createStoredFile,
  type FilesWorld,
} from './files-world.js';
import { makeJpegHtmlPolyglot, POLYGLOT_SCRIPT } from './images.js';

/**
 * Names a file is shown and offered under: `originalName` cleaned in every answer, and the
 * download name (link and zip entry) carrying the extension of the sniffed type.
 */
describe('file names in answers and downloads', () => {
  let server: TestServer;
  let world: FilesWorld;
  let admin: FilesClient;
  const zips = archiveDir();

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { worker: true });
    world = await buildFilesWorld(server.ctx);
    admin = await filesClient(server, world.users.admin);
  });
  afterAll(async () => {
    await server.close();
    zips.remove();
  });

  const fileUrl = (collectionId: string, fileId: string) =>
    `/teams/${world.team.id}/collections/${collectionId}/files/${fileId}`;

  /** The Content-Disposition the signed link of a file is served with. */
  async function linkDisposition(collectionId: string, fileId: string): Promise<string> {
    const link = await admin.get(`${fileUrl(collectionId, fileId)}/download`);
    expect(link.statusCode, link.body).toBe(200);
    const served = await server.app.inject(injectPath(link.json<{ url: string }>().url));
    expect(served.statusCode).toBe(200);
    return String(served.headers['content-disposition']);
  }

  /** The file as every answer that carries it shows it: upload, single file and each list. */
  async function everyAnswer(collectionId: string, fileId: string): Promise<FileItem[]> {
    const single = await admin.get(fileUrl(collectionId, fileId));
    expect(single.statusCode, single.body).toBe(200);
    const lists = [
      `/teams/${world.team.id}/collections/${collectionId}/files`,
      `/teams/${world.team.id}/files`,
      '/files',
    ];
    const found: FileItem[] = [single.json<FileItem>()];
    for (const url of lists) {
      const file = (await admin.listAll(url)).find((f) => f.fileId === fileId);
      expect(file, url).toBeDefined();
      if (file) found.push(file);
    }
    const uploaderId = found[0]?.uploadedBy ?? '';
    const byMember = await admin.listAll(
      `/teams/${world.team.id}/members/${uploaderId}/collections/${collectionId}/files`,
    );
    const mine = byMember.find((f) => f.fileId === fileId);
    expect(mine).toBeDefined();
    if (mine) found.push(mine);
    return found;
  }

  it('offers a JPEG/HTML polyglot uploaded as .html as .jpg, by link and in the zip', async () => {
    const polyglot = await makeJpegHtmlPolyglot();
    expect(polyglot.includes(Buffer.from(POLYGLOT_SCRIPT))).toBe(true);
    const collection = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.admin.id,
      mode: 'collaborative',
      name: 'Polyglots',
    });
    const res = await admin.upload(world.team.id, collection.id, {
      filename: 'polyglot.html',
      data: polyglot,
      contentType: 'text/html',
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<FileItem>();
    // Shown under the name it was given; sniffed as what its bytes are.
    expect(file).toMatchObject({ name: 'polyglot.html', contentType: 'image/jpeg' });
    expect(await linkDisposition(collection.id, file.fileId)).toBe(
      'attachment; filename="polyglot.jpg"',
    );
    // A name that agrees with its bytes is offered as it is.
    const page = await admin.upload(world.team.id, collection.id, {
      filename: 'page.html',
      data: '<!doctype html><p>hello</p>',
    });
    expect(page.json<FileItem>().contentType).toBe('text/html');
    const notes = await admin.upload(world.team.id, collection.id, {
      filename: 'notes.csv',
      data: 'a,b\n1,2\n',
    });
    const script = await admin.upload(world.team.id, collection.id, {
      filename: 'run.js',
      data: 'alert(1)\n',
    });
    expect(await linkDisposition(collection.id, page.json<FileItem>().fileId)).toBe(
      'attachment; filename="page.html"',
    );
    expect(await linkDisposition(collection.id, script.json<FileItem>().fileId)).toBe(
      'attachment; filename="run.txt"',
    );

    const owner = await downloadsClient(server, world.users.owner);
    const { requestId } = await owner.request(world.team.id, { collectionId: collection.id });
    const ready = await owner.settled(world.team.id, requestId);
    expect(ready.status).toBe('ready');
    const zip = await owner.fetchLink(await owner.link(world.team.id, requestId));
    const entries = await inspectZip(await zips.save('polyglot.zip', zip.rawPayload));
    expect(entries.map((e) => e.name).sort()).toEqual([
      'Polyglots/notes.csv',
      'Polyglots/page.html',
      'Polyglots/polyglot.jpg',
      'Polyglots/run.txt',
    ]);
    expect(entries.find((e) => e.name === 'Polyglots/polyglot.jpg')?.size).toBe(polyglot.length);
    expect(notes.statusCode).toBe(201);
  });

  it('stores and answers a multipart name holding NUL, control and bidi characters cleaned', async () => {
    const collection = world.collections.shared;
    // Browsers percent-encode CR and LF in a multipart name (the tus test sends them raw).
    const sent = 'a\u0000b\u0007\u009b\u202Egpj.exe\u2066\u200B.jpg';
    const cleaned = 'abgpj.exe.jpg';
    const res = await admin.upload(world.team.id, collection.id, {
      filename: sent,
      data: 'hello\n',
    });
    expect(res.statusCode, res.body).toBe(201);
    const uploaded = res.json<FileItem>();
    expect(uploaded.originalName).toBe(cleaned);
    expect(uploaded.name).toBe(cleaned);
    const row = await server.ctx.db
      .selectFrom('files')
      .select(['name', 'original_name'])
      .where('id', '=', uploaded.fileId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: cleaned, original_name: cleaned });
    for (const answer of await everyAnswer(collection.id, uploaded.fileId)) {
      expect(answer.originalName).toBe(cleaned);
      expect(answer.name).toBe(cleaned);
    }
    // Text offered as text: the name's contradicting `.jpg` becomes `.txt`.
    expect(await linkDisposition(collection.id, uploaded.fileId)).toBe(
      'attachment; filename="abgpj.exe.txt"',
    );
  });

  it('stores a tus upload whose metadata name holds NUL, CR, LF and bidi characters cleaned', async () => {
    const collection = world.collections.shared;
    const tus = await tusClient(server, world.users.admin);
    const data = Buffer.from('resumable text\n');
    const created = await tus.create(world.team.id, collection.id, {
      length: data.length,
      filename: 'report\u0000\r\n\u202Etxt.exe',
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = String(created.headers.location);
    const id = url.split('/').pop() ?? '';
    const upload = await server.ctx.db
      .selectFrom('uploads')
      .select('file_name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(upload.file_name).toBe('reporttxt.exe');
    const done = await tus.patch(url, 0, data);
    expect(done.statusCode, done.body).toBe(204);
    for (const answer of await everyAnswer(collection.id, id)) {
      expect(answer.originalName).toBe('reporttxt.exe');
      expect(answer.name).toBe('reporttxt.exe');
    }
    expect(await linkDisposition(collection.id, id)).toBe('attachment; filename="reporttxt.txt"');
    const row = await server.ctx.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await readAll(await server.ctx.storage.get(row.storage_key))).toEqual(data);
  });

  it('answers names stored raw before they were cleaned on the way in, cleaned', async () => {
    const collection = world.collections.owned;
    const stored = await createStoredFile(server.ctx, {
      collection,
      uploadedBy: world.users.owner.id,
      name: 'invoice_fdp.exe',
      data: Buffer.from('%PDF-1.4\n'),
      contentType: 'application/pdf',
    });
    await server.ctx.db
      .updateTable('files')
      .set({ original_name: 'C:\\in\rv\noice_\u202Efdp.exe\u2069' })
      .where('id', '=', stored.id)
      .execute();
    for (const answer of await everyAnswer(collection.id, stored.id)) {
      expect(answer.originalName).toBe('C:\\invoice_fdp.exe');
    }
    expect(await linkDisposition(collection.id, stored.id)).toBe(
      'attachment; filename="invoice_fdp.pdf"',
    );
  });
});
