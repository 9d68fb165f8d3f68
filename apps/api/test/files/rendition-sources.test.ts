/**
 * The rendition job, run by the server's worker, reads originals from a file on local disk, never whole into memory: a hard
 * link on local storage, a copy streamed into DATA_DIR/tmp from S3 or deciphered from an encrypted
 * object. On both drivers, plain and encrypted: the same renditions as from the bytes, and no
 * scratch file or link left behind, whether the rendition succeeds or fails.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { fileKeys } from '../../src/files/files.keys.js';
import type { FileRow } from '../../src/files/files.repository.js';
import { renderFileJob } from '../../src/files/renditions.job.js';
import { enqueueJob } from '../../src/jobs/enqueue.js';
import { makePdf } from '../../src/files/pdf.fixture.js';
import { makeRenditions } from '../../src/files/renditions.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import { scratchDirOf } from '../../src/storage/object-file.js';
import { readAll, sha256 } from '../../src/storage/testing/helpers.js';
import { STORAGE_KINDS, startUploadServer, type UploadServer } from '../uploads/tus-world.js';
import { buildFilesWorld, type FilesWorld } from './files-world.js';
import { garbageJpeg } from './images.js';

const cases = STORAGE_KINDS.flatMap((kind) =>
  (['free', 'premium'] as const).map((plan) => ({ kind, plan })),
);

describe.each(cases)('renditions from a file, $kind storage, $plan plan', ({ kind, plan }) => {
  let server: UploadServer;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startUploadServer(kind, {}, { worker: true });
    world = await buildFilesWorld(server.ctx);
    await server.ctx.db
      .updateTable('teams')
      .set({ plan })
      .where('id', '=', world.team.id)
      .execute();
  });
  afterAll(() => server.close());

  const row = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /**
   * A stored original waiting for its rendition, as a commit leaves it (stored encrypted on the
   * premium plan), rendered by the server's worker. Not uploaded: uploads sniff the first 4100
   * bytes, and a TIFF's directory usually lies beyond them.
   */
  async function renderStored(name: string, contentType: string, data: Buffer): Promise<FileRow> {
    const collection = world.collections.shared;
    const id = newId();
    const keys = fileKeys({
      teamId: collection.team_id,
      collectionId: collection.id,
      fileId: id,
      encrypted: plan === 'premium',
    });
    await server.ctx.storage.put(keys.original, Readable.from([data]));
    const at = server.ctx.clock();
    await server.ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('files')
        .values({
          id,
          team_id: collection.team_id,
          collection_id: collection.id,
          name,
          original_name: name,
          content_type: contentType,
          size: data.length,
          sha256: sha256(data),
          storage_key: keys.original,
          uploaded_by: world.users.admin.id,
          rendition_status: 'pending',
          thumbnail_key: null,
          preview_key: null,
          width: null,
          height: null,
          created_at: at,
          updated_at: at,
          damaged_at: null,
        })
        .execute();
      await enqueueJob(trx, renderFileJob, { payload: { fileId: id } }, server.ctx.clock);
    });
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await row(id)).rendition_status !== 'pending',
      `the rendition of ${name}`,
      30_000,
    );
    return row(id);
  }

  /** Scratch copies in DATA_DIR/tmp, and reading links in local storage's temp folder. */
  async function leftovers(): Promise<string[]> {
    const found: string[] = [];
    const scratch = scratchDirOf(server.config.dataDir);
    if (existsSync(scratch)) found.push(...(await readdir(scratch)));
    if (server.config.storage.kind === 'local') {
      const temp = path.join(server.config.storage.root, '.tmp');
      if (existsSync(temp)) found.push(...(await readdir(temp)).filter((n) => n.endsWith('.read')));
    }
    return found;
  }

  const fixture = (name: string) =>
    readFile(new URL(`../fixtures/images/${name}`, import.meta.url));
  const tiff = () =>
    sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#3a6ea5' } })
      .composite([
        {
          input: { create: { width: 600, height: 400, channels: 3, background: '#e61414' } },
          left: 0,
          top: 0,
        },
      ])
      .tiff({ compression: 'none' })
      .toBuffer();

  it.each([
    ['scan.tif', 'image/tiff', tiff],
    ['phone.heic', 'image/heic', () => fixture('sample.heic')],
    ['minutes.pdf', 'application/pdf', () => Promise.resolve(makePdf({ pages: 2 }))],
  ])('renders %s as from its bytes, and leaves nothing behind', async (name, type, make) => {
    const data = await make();
    const stored = await renderStored(name, type, data);
    expect(stored.rendition_status).toBe('ready');
    expect(stored.storage_key.endsWith('.enc')).toBe(plan === 'premium');
    const expected = await makeRenditions(data, type, {
      maxInputPixels: server.config.files.maxInputPixels,
    });
    expect([stored.width, stored.height]).toEqual([expected.width, expected.height]);
    const bytes = async (key: string | null) =>
      sha256(await readAll(await server.ctx.storage.get(key ?? '')));
    expect(await bytes(stored.thumbnail_key)).toBe(sha256(expected.thumbnail));
    expect(await bytes(stored.preview_key)).toBe(sha256(expected.preview));
    expect(await leftovers()).toEqual([]);
  });

  it('marks an undecodable original failed, and leaves nothing behind', async () => {
    const stored = await renderStored('broken.jpg', 'image/jpeg', garbageJpeg());
    expect(stored.rendition_status).toBe('failed');
    expect(await leftovers()).toEqual([]);
  });
});
