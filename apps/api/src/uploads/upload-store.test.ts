/**
 * What the product's tus store keeps of an upload received by this process: the SHA-256 and the
 * first bytes finishing sniffs the type from, and the answer tus gets once the upload is a file.
 * Over the local disk's store (BufferedFileStore), whose writes are checked here too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ERRORS, Upload } from '@tus/utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNIFF_BYTES } from '../files/sniff.js';
import { makeTempDir } from '../storage/testing/helpers.js';
import { BufferedFileStore, FILE_WRITE_BUFFER_BYTES } from './upload-backends.js';
import { ProductUploadStore, tusRequestContext } from './upload-store.js';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let store: ProductUploadStore;

beforeEach(async () => {
  temp = await makeTempDir();
  store = newStore();
});
afterEach(() => temp.cleanup());

/** A store over the same directory, as a restarted process would have. */
function newStore(): ProductUploadStore {
  return new ProductUploadStore(
    new BufferedFileStore(path.join(temp.dir, 'uploads'), 0),
    path.join(temp.dir, 'spool'),
  );
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A body arriving in chunks of `size` bytes, as a socket delivers it. */
const chunked = (data: Buffer, size: number) =>
  Readable.from(
    Array.from({ length: Math.ceil(data.length / size) }, (_, i) =>
      data.subarray(i * size, (i + 1) * size),
    ),
  );

/** `data` in chunks that arrive one by one, as a socket delivers them, then a connection reset. */
function breakingOff(data: Buffer, size: number): Readable {
  let at = 0;
  return new Readable({
    read() {
      setTimeout(() => {
        if (at >= data.length) {
          this.destroy(new Error('connection reset'));
          return;
        }
        this.push(data.subarray(at, at + size));
        at += size;
      }, 1);
    },
  });
}

async function created(id: string, size: number): Promise<void> {
  await store.create(new Upload({ id, size, offset: 0 }));
}

describe('an upload received whole by this process', () => {
  it('gives its SHA-256 and first bytes, across chunks and requests', async () => {
    const data = randomBytes(3 * SNIFF_BYTES + 17);
    await created('whole', data.length);
    // A first request smaller than the head, then the rest in odd chunks.
    expect(await store.write(chunked(data.subarray(0, 100), 7), 'whole', 0)).toBe(100);
    expect(await store.write(chunked(data.subarray(100), 999), 'whole', 100)).toBe(data.length);

    const received = store.takeReceived('whole', data.length);
    expect(received?.sha256).toBe(sha256(data));
    expect(received?.head).toEqual(data.subarray(0, SNIFF_BYTES));
    // Taken once: the hash is finished.
    expect(store.takeReceived('whole', data.length)).toBeNull();
  });

  it('gives all of a file smaller than the head', async () => {
    const data = randomBytes(50);
    await created('small', data.length);
    await store.write(chunked(data, 16), 'small', 0);
    expect(store.takeReceived('small', data.length)).toEqual({
      sha256: sha256(data),
      head: data,
    });
  });

  it('gives nothing while bytes are missing', async () => {
    const data = randomBytes(10_000);
    await created('partial', data.length);
    await store.write(chunked(data.subarray(0, 4000), 1000), 'partial', 0);
    expect(store.takeReceived('partial', data.length)).toBeNull();
  });

  it('gives nothing when this process did not see every byte (a restart, another process)', async () => {
    const data = randomBytes(10_000);
    await created('restarted', data.length);
    await store.write(chunked(data.subarray(0, 4000), 1000), 'restarted', 0);
    const restarted = newStore();
    expect(await restarted.write(chunked(data.subarray(4000), 1000), 'restarted', 4000)).toBe(
      data.length,
    );
    expect(restarted.takeReceived('restarted', data.length)).toBeNull();
  });

  it('starts again when the bytes do not follow on from what it saw', async () => {
    const data = randomBytes(10_000);
    await created('gap', data.length);
    await store.write(chunked(data.subarray(0, 4000), 1000), 'gap', 0);
    // Another process appended meanwhile; this one sees a request at a later offset.
    await newStore().write(chunked(data.subarray(4000, 6000), 1000), 'gap', 4000);
    await store.write(chunked(data.subarray(6000), 1000), 'gap', 6000);
    expect(store.takeReceived('gap', data.length)).toBeNull();
  });
});

describe('once a request made the upload a file', () => {
  it('answers tus from the request, without the leftovers that go next', async () => {
    const data = randomBytes(1000);
    await created('done', data.length);
    await store.write(chunked(data, 100), 'done', 0);
    const finished = await store.getUpload('done');
    expect(finished.offset).toBe(data.length);
    // The leftovers are released before tus is done with the request.
    await rm(path.join(temp.dir, 'uploads'), { recursive: true });

    await tusRequestContext.run({ finished }, async () => {
      expect(await store.getUpload('done')).toBe(finished);
      // Any other upload is still the store's.
      await expect(store.getUpload('other')).rejects.toBeDefined();
    });
    // Outside that request the store answers, and the upload is gone.
    await expect(store.getUpload('done')).rejects.toBeDefined();
  });
});

describe('the local disk store', () => {
  it('refuses to write where an id could leave its folder', async () => {
    for (const id of ['../outside', 'a/b', 'a\\b', '..']) {
      await expect(store.write(chunked(Buffer.from('x'), 1), id, 0), id).rejects.toBe(
        ERRORS.FILE_NOT_FOUND,
      );
    }
  });

  it('writes every byte at its offset, whatever the chunks, past its buffer', async () => {
    const data = randomBytes(3 * FILE_WRITE_BUFFER_BYTES + 12_345);
    await created('big', data.length);
    const first = FILE_WRITE_BUFFER_BYTES + 1;
    expect(await store.write(chunked(data.subarray(0, first), 65_536), 'big', 0)).toBe(first);
    expect(await store.write(chunked(data.subarray(first), 10_000), 'big', first)).toBe(
      data.length,
    );
    expect((await store.getUpload('big')).offset).toBe(data.length);
    expect(sha256(await readFile(path.join(temp.dir, 'uploads', 'big')))).toBe(sha256(data));
  });

  it('keeps what reached the disk when a body fails, and the offset says how much', async () => {
    const data = randomBytes(2 * FILE_WRITE_BUFFER_BYTES);
    await created('broken', data.length);
    const sent = data.subarray(0, FILE_WRITE_BUFFER_BYTES + 500);
    await expect(store.write(breakingOff(sent, 65_536), 'broken', 0)).rejects.toBe(
      ERRORS.FILE_WRITE_ERROR,
    );
    const { offset } = await store.getUpload('broken');
    // What arrived before the reset was written meanwhile, and nothing more.
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(sent.length);
    const onDisk = await readFile(path.join(temp.dir, 'uploads', 'broken'));
    expect(onDisk.length).toBe(offset);
    expect(sha256(onDisk)).toBe(sha256(data.subarray(0, offset)));
    // The client resumes from there and the file ends whole.
    expect(await store.write(chunked(data.subarray(offset), 4096), 'broken', offset)).toBe(
      data.length,
    );
    expect(sha256(await readFile(path.join(temp.dir, 'uploads', 'broken')))).toBe(sha256(data));
  });
});
