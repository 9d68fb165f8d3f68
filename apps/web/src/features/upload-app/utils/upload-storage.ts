import type { PreviousUpload, UrlStorage } from 'tus-js-client';

/**
 * tus-js-client keeps each upload in progress in localStorage under `tus::{fingerprint}::{n}`.
 * Our fingerprints start with the user and the collection, so a collection's interrupted uploads
 * can be found again after a reload (when the File objects are gone), and another account on the
 * same browser never resumes them.
 */
export function uploadScope(userId: string, collectionId: string): string {
  return `raccolta:${userId}:${collectionId}`;
}

/** The same file chosen again (name, type, size, last change) gets the same fingerprint. */
export function fingerprintOf(scope: string, file: File): string {
  return [scope, file.size, file.lastModified, file.type, file.name].join('|');
}

const STORAGE_PREFIX = 'tus::';

/** The fingerprint an entry of the URL storage was saved under. */
export function fingerprintOfKey(urlStorageKey: string): string | null {
  if (!urlStorageKey.startsWith(STORAGE_PREFIX)) return null;
  const end = urlStorageKey.lastIndexOf('::');
  return end > STORAGE_PREFIX.length ? urlStorageKey.slice(STORAGE_PREFIX.length, end) : null;
}

/** An upload of this collection that started in an earlier visit and did not finish. */
export interface InterruptedUpload {
  urlStorageKey: string;
  fingerprint: string;
  uploadUrl: string;
  fileName: string;
  size: number;
  /** When it was started, epoch ms (NaN when the stored date cannot be read). */
  startedAt: number;
}

function toInterrupted(entry: PreviousUpload): InterruptedUpload | null {
  const fingerprint = fingerprintOfKey(entry.urlStorageKey);
  if (fingerprint === null || entry.uploadUrl === null) return null;
  return {
    urlStorageKey: entry.urlStorageKey,
    fingerprint,
    uploadUrl: entry.uploadUrl,
    fileName: entry.metadata.filename ?? '',
    size: entry.size ?? 0,
    startedAt: Date.parse(entry.creationTime),
  };
}

/**
 * The stored uploads of a scope (user and collection) that no file of the queue is working on,
 * newest first, one per file (an earlier attempt at the same file is superseded by the newest).
 */
export async function findInterruptedUploads(
  storage: UrlStorage,
  scope: string,
  busyFingerprints: ReadonlySet<string>,
): Promise<InterruptedUpload[]> {
  const entries = (await storage.findAllUploads())
    .map(toInterrupted)
    .filter((entry): entry is InterruptedUpload => entry !== null)
    .filter((entry) => entry.fingerprint.startsWith(`${scope}|`))
    .filter((entry) => !busyFingerprints.has(entry.fingerprint))
    .sort((a, b) => (b.startedAt || 0) - (a.startedAt || 0));
  const seen = new Set<string>();
  return entries.filter((entry) => {
    if (seen.has(entry.fingerprint)) return false;
    seen.add(entry.fingerprint);
    return true;
  });
}

/** Forgets every stored attempt at one file. */
export async function forgetFingerprint(storage: UrlStorage, fingerprint: string): Promise<void> {
  const entries = await storage.findUploadsByFingerprint(fingerprint);
  await Promise.all(entries.map((entry) => storage.removeUpload(entry.urlStorageKey)));
}

/** The newest of the stored attempts at a file, the one to resume. */
export function newestUpload(entries: readonly PreviousUpload[]): PreviousUpload | null {
  let newest: PreviousUpload | null = null;
  for (const entry of entries) {
    if (entry.uploadUrl === null) continue;
    if (newest === null || Date.parse(entry.creationTime) > Date.parse(newest.creationTime)) {
      newest = entry;
    }
  }
  return newest;
}
