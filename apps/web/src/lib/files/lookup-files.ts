import {
  duplicatesResponseSchema,
  FILE_LOOKUP_MAX_HASHES,
  fileLookupResponseSchema,
  type DuplicatesResponse,
  type FileLookupMatch,
} from '@raccolta/contracts';
import type { AuthedRequest } from '../auth/session/authed-request';
import { filesPath } from './file-keys';

/**
 * POST /teams/{teamId}/collections/{collectionId}/files/lookup: which of these SHA-256 digests
 * the collection already holds, each with its oldest file. More digests than one request takes
 * are asked in batches.
 */
export async function lookupFiles(
  request: AuthedRequest,
  teamId: string,
  collectionId: string,
  digests: readonly string[],
): Promise<Map<string, FileLookupMatch>> {
  const unique = [...new Set(digests)];
  const found = new Map<string, FileLookupMatch>();
  for (let start = 0; start < unique.length; start += FILE_LOOKUP_MAX_HASHES) {
    const answer = await request(`${filesPath(teamId, collectionId)}/lookup`, {
      method: 'POST',
      body: { sha256: unique.slice(start, start + FILE_LOOKUP_MAX_HASHES) },
      schema: fileLookupResponseSchema,
    });
    for (const match of answer.found) found.set(match.sha256, match);
  }
  return found;
}

/** GET …/files/duplicates: the collection's files that hold the same bytes, by group. */
export function getDuplicates(
  request: AuthedRequest,
  teamId: string,
  collectionId: string,
  signal?: AbortSignal,
): Promise<DuplicatesResponse> {
  return request(`${filesPath(teamId, collectionId)}/duplicates`, {
    schema: duplicatesResponseSchema,
    signal,
  });
}
