import { z } from 'zod';
import type { Db } from '../db/create-db.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import { encryptedKey, isEncryptedKey } from '../storage/encryption.js';
import { encryptsFiles } from './files.keys.js';
import { filesByBatch, moveFileObjects, type MoveFileObjectsDeps } from './move-file-objects.js';

export type EncryptTeamDeps = MoveFileObjectsDeps;

/** A file whose thumbnails are being made is left for a later run, this much later. */
const RETRY_MS = 60_000;

/** Enqueues the encryption of a team's files; one waiting run per team is enough. */
export function enqueueTeamEncryption(db: Db, teamId: string, clock: Clock): Promise<string> {
  return enqueueJob(
    db,
    encryptTeamFilesJob,
    { payload: { teamId }, dedupeKey: `files.encrypt-team:${teamId}` },
    clock,
  );
}

/**
 * A team that becomes premium has its files stored encrypted (spec §1), not only the new ones:
 * each plain original and its renditions are copied under their `.enc` keys, the row is pointed at
 * the copies, and the plain objects are deleted once every download link handed out for them has
 * expired (SIGNED_URL_TTL_SECONDS, and a minute more). A file whose renditions are being made
 * (its rendition job reads and writes by the row's key) waits for a later run. Idempotent: a run
 * that stopped halfway leaves copies the next run writes again; two runs at once move each file
 * once (the row is moved only from the key that was copied).
 */
export const encryptTeamFilesJob = defineJob({
  queue: 'files.encrypt-team',
  schema: z.object({ teamId: z.string().min(1) }),
  maxAttempts: 5,
  handler: async (deps: EncryptTeamDeps, { teamId }) => {
    const { db, clock } = deps;
    const team = await db
      .selectFrom('teams')
      .select('plan')
      .where('id', '=', teamId)
      .executeTakeFirst();
    // Gone, or no longer premium: what is encrypted stays readable, nothing more is done.
    if (!team || !encryptsFiles(team)) return;
    let waiting = false;
    for await (const row of filesByBatch(db, teamId)) {
      if (isEncryptedKey(row.storage_key)) continue;
      if (row.rendition_status === 'pending') {
        waiting = true;
        continue;
      }
      const plain = [row.storage_key, row.thumbnail_key, row.preview_key].filter(
        (key): key is string => key !== null && !isEncryptedKey(key),
      );
      await moveFileObjects(deps, row, new Map(plain.map((key) => [key, encryptedKey(key)])));
    }
    if (waiting) {
      await enqueueJob(
        db,
        encryptTeamFilesJob,
        { payload: { teamId }, runAt: clock() + RETRY_MS },
        clock,
      );
    }
  },
});
