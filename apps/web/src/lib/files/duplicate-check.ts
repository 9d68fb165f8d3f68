import type { AuthedRequest } from '../auth/session/authed-request';
import { lookupFiles } from './lookup-files';
import { hashFile } from './sha256/hash-file';

/** A file's digest, and the collection's file with the same bytes, if any. */
export interface DuplicateCheckResult {
  sha256: string;
  match: { fileId: string; name: string } | null;
}

/**
 * The check before an upload into a collection: the file's SHA-256 in the hashing worker, then
 * the lookup. Rejects when either cannot be done; the caller uploads unchecked then.
 */
export function duplicateCheck(
  request: AuthedRequest,
  teamId: string,
  collectionId: string,
): (file: File) => Promise<DuplicateCheckResult> {
  return async (file) => {
    const sha256 = await hashFile(file);
    const found = await lookupFiles(request, teamId, collectionId, [sha256]);
    const match = found.get(sha256);
    return { sha256, match: match ? { fileId: match.fileId, name: match.name } : null };
  };
}
