import { createHash, randomBytes } from 'node:crypto';
import { sha256 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { sha256OfBlob } from './sha256-blob';

const nodeSha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('sha256OfBlob', () => {
  it('hashes a generated blob slice by slice as one-shot hashing does', async () => {
    const data = new Uint8Array(randomBytes(1_000_003));
    const blob = new Blob([data.subarray(0, 400_000), data.subarray(400_000)]);
    const oneShot = await sha256(data);
    expect(oneShot).toBe(nodeSha256(data));
    const seen: number[] = [];
    // A slice size that does not divide the length: the last slice is short.
    const incremental = await sha256OfBlob(blob, {
      sliceBytes: 65_536,
      onProgress: (hashed) => seen.push(hashed),
    });
    expect(incremental).toBe(oneShot);
    expect(seen).toHaveLength(Math.ceil(data.length / 65_536));
    expect(seen.at(-1)).toBe(data.length);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // The default slice (larger than the blob) and a one-byte slice agree as well.
    expect(await sha256OfBlob(blob)).toBe(oneShot);
    expect(await sha256OfBlob(new Blob([data.subarray(0, 3000)]), { sliceBytes: 1 })).toBe(
      nodeSha256(data.subarray(0, 3000)),
    );
  });

  it('hashes an empty blob as the digest of nothing', async () => {
    expect(await sha256OfBlob(new Blob([]))).toBe(nodeSha256(new Uint8Array(0)));
  });

  it('reads only slices of the file, never the whole of it', async () => {
    const data = new Uint8Array(randomBytes(300_000));
    const blob = new Blob([data]);
    const asked: number[] = [];
    const watched = {
      size: blob.size,
      slice: (start?: number, end?: number) => {
        asked.push((end ?? blob.size) - (start ?? 0));
        return blob.slice(start, end);
      },
      arrayBuffer: () => {
        throw new Error('read whole');
      },
    } as unknown as Blob;
    expect(await sha256OfBlob(watched, { sliceBytes: 100_000 })).toBe(nodeSha256(data));
    expect(asked).toEqual([100_000, 100_000, 100_000]);
  });
});
