import type { FileItem } from '@raccolta/contracts';

/** The first wait after a file is seen without its thumbnail: the job usually takes seconds. */
export const RENDITION_POLL_FIRST_MS = 2_000;
/** The longest wait between two asks, however long a file has been pending. */
export const RENDITION_POLL_MAX_MS = 30_000;
/** How long a file stays worth asking about: past this the job has retried and given up. */
export const RENDITION_WAIT_MS = 10 * 60_000;

/**
 * When to ask for a file list again while some of its files still wait for their thumbnail
 * (renditionStatus `pending`), or false to stop. `firstSeen` remembers, across calls, when each
 * pending file was first seen here (the client's own clock, not the server's `createdAt`): the
 * wait grows with the youngest pending file's age (half of it, between the first and the longest
 * wait), and a file pending for longer than RENDITION_WAIT_MS no longer counts. A file that turns
 * `ready`, `failed` or `none` is forgotten.
 */
export function renditionPollDelay(
  files: readonly Pick<FileItem, 'fileId' | 'renditionStatus'>[],
  firstSeen: Map<string, number>,
  now: number,
): number | false {
  const pending = new Set(
    files.filter((file) => file.renditionStatus === 'pending').map((file) => file.fileId),
  );
  for (const fileId of firstSeen.keys()) if (!pending.has(fileId)) firstSeen.delete(fileId);
  let youngestAge: number | null = null;
  for (const fileId of pending) {
    const seenAt = firstSeen.get(fileId) ?? now;
    firstSeen.set(fileId, seenAt);
    const age = Math.max(0, now - seenAt);
    if (age < RENDITION_WAIT_MS && (youngestAge === null || age < youngestAge)) youngestAge = age;
  }
  if (youngestAge === null) return false;
  return Math.min(RENDITION_POLL_MAX_MS, Math.max(RENDITION_POLL_FIRST_MS, youngestAge / 2));
}
