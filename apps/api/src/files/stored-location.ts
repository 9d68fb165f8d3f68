import { Readable } from 'node:stream';
import type { Storage } from '../storage/storage.js';
import { LOCATION_TYPES, stripLocation } from './strip-location.js';

/**
 * The largest image whose location is removed: it is read whole into memory to be edited. A
 * photo is a few megabytes, a panorama some tens; a bigger image is stored as it came, rather
 * than letting concurrent uploads take the process's memory (docs/decisions.md, "Files").
 */
export const LOCATION_STRIP_MAX_BYTES = 128 * 1024 * 1024;

export interface StrippedBytes {
  size: number;
  sha256: string;
}

/**
 * For a team that strips locations: rewrites the stored object at `key` without the GPS position
 * of the image it holds (strip-location.ts: metadata only, no pixel re-encoded), and answers its
 * new size and digest; null when there was nothing to remove (or the type carries no
 * location, or the image is over LOCATION_STRIP_MAX_BYTES). Written under the same key, as the
 * storage writes every object: whole or not at all.
 */
export async function stripStoredLocation(
  storage: Storage,
  key: string,
  size: number,
  contentType: string,
): Promise<StrippedBytes | null> {
  if (!LOCATION_TYPES.has(contentType) || size === 0) return null;
  if (size > LOCATION_STRIP_MAX_BYTES) return null;
  const chunks = (await (await storage.get(key)).toArray()) as Buffer[];
  const stripped = stripLocation(Buffer.concat(chunks), contentType);
  if (!stripped) return null;
  const put = await storage.put(key, Readable.from([stripped]));
  if (put.sha256 === null) throw new Error(`The storage gave no SHA-256 for ${key}`);
  return { size: put.size, sha256: put.sha256 };
}
