import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partKey } from '../../src/downloads/downloads.keys.js';
import type { FileRow } from '../../src/files/files.repository.js';
import { createCollection, createStoredFile } from '../files/files-world.js';
import { buildWorld, type World } from '../members/world.js';
import { startUploadServer, type UploadServer } from '../uploads/tus-world.js';
import { archiveDir, downloadsClient } from './downloads-env.js';
import { inspectZip, type ZipListing } from './zip-check.js';

const MiB = 1024 * 1024;

describe('collection downloads on S3 storage', () => {
  let server: UploadServer;
  let world: World;
  const zips = archiveDir();

  beforeAll(async () => {
    server = await startUploadServer(
      's3',
      { DOWNLOAD_PART_MAX_BYTES: String(MiB) },
      { worker: true },
    );
    world = await buildWorld(server.ctx);
  });
  afterAll(async () => {
    await server.close();
    zips.remove();
  });

  it('streams each part into the bucket and offers presigned links to complete zips', async () => {
    const collection = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.owner.id,
      mode: 'owned',
      name: 'Bucket',
    });
    const files: FileRow[] = [];
    for (let i = 0; i < 5; i++)
      files.push(
        await createStoredFile(server.ctx, {
          collection,
          uploadedBy: world.users.owner.id,
          name: `IMG_${i}.jpg`,
          contentType: 'image/jpeg',
          data: randomBytes(400_000),
        }),
      );
    const owner = await downloadsClient(server, world.users.owner);
    const { requestId } = await owner.request(world.team.id, { collectionId: collection.id });
    const ready = await owner.settled(world.team.id, requestId);
    expect(ready.status).toBe('ready');
    expect(ready.totalParts).toBeGreaterThan(1);

    const entries: ZipListing[] = [];
    for (const part of ready.parts) {
      const link = await owner.link(world.team.id, requestId, part.partId);
      const { url } = link.json<{ url: string }>();
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length).toBe(part.size);
      entries.push(...(await inspectZip(await zips.save(`s3-${part.partId}.zip`, body))));
    }
    expect(entries.map((e) => e.sha256).sort()).toEqual(files.map((f) => f.sha256).sort());
    expect(await server.ctx.storage.stat(partKey(requestId, 1))).not.toBeNull();
  });
});
