import { createSHA256 } from 'hash-wasm';

/**
 * The SHA-256 of a Blob (a File), computed incrementally: read one slice at a time and fed to an
 * incremental hasher, so a file of several gigabytes never sits in memory whole. Runs in the
 * hashing worker (sha256.worker.ts), and in tests. The next slice is read while the current one
 * is hashed, so reading and hashing overlap.
 */

/** Bytes read at a time: large enough that reading costs little, small enough for a phone. */
export const SHA256_SLICE_BYTES = 8 * 1024 * 1024;

export interface Sha256Options {
  sliceBytes?: number;
  /** Bytes hashed so far, after each slice. */
  onProgress?: (hashed: number) => void;
}

/** Lowercase hex, as the API's lookup and the tus `sha256` metadata take it. */
export async function sha256OfBlob(blob: Blob, options: Sha256Options = {}): Promise<string> {
  const sliceBytes = Math.max(1, options.sliceBytes ?? SHA256_SLICE_BYTES);
  const hasher = await createSHA256();
  hasher.init();
  const read = (start: number) =>
    blob
      .slice(start, Math.min(start + sliceBytes, blob.size))
      .arrayBuffer()
      .then((buffer) => new Uint8Array(buffer));
  let next = blob.size > 0 ? read(0) : null;
  for (let start = 0; next !== null; start += sliceBytes) {
    const slice = await next;
    const following = start + sliceBytes;
    next = following < blob.size ? read(following) : null;
    hasher.update(slice);
    options.onProgress?.(Math.min(following, blob.size));
  }
  return hasher.digest('hex');
}
