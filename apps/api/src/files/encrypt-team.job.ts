import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import { encryptedKey, isEncryptedKey } from '../storage/encryption.js';
import { StorageNotFoundError, type Storage } from '../storage/storage.js';
import { deleteFileObjectsJob } from './delete-file-objects.job.js';
import { encryptsFiles } from './files.keys.js';

export interface EncryptTeamDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
}

const BATCH = 20;
/** A file whose thumbnails are being made is left for a later run, this much later. */
const RETRY_MS = 60_000;

/** Copies an object under its encrypted key; false when it is gone (its file was deleted). */
async function encryptCopy(storage: Storage, key: string): Promise<boolean> {
  try {
    await storage.put(encryptedKey(key), await storage.get(key));
    return true;
  } catch (error) {
    if (error instanceof StorageNotFoundError) return false;
    throw error;
  }
}

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
  handler: async ({ config, db, storage, clock }: EncryptTeamDeps, { teamId }) => {
    const team = await db
      .selectFrom('teams')
      .select('plan')
      .where('id', '=', teamId)
      .executeTakeFirst();
    // Gone, or no longer premium: what is encrypted stays readable, nothing more is done.
    if (!team || !encryptsFiles(team)) return;
    const linksOutlive = config.signedUrlTtlSeconds * 1000 + 60_000;
    let after = '';
    let waiting = false;
    for (;;) {
      const rows = await db
        .selectFrom('files')
        .select(['id', 'storage_key', 'thumbnail_key', 'preview_key', 'rendition_status'])
        .where('team_id', '=', teamId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        after = row.id;
        if (isEncryptedKey(row.storage_key)) continue;
        if (row.rendition_status === 'pending') {
          waiting = true;
          continue;
        }
        const renditions = [row.thumbnail_key, row.preview_key].filter(
          (key): key is string => key !== null && !isEncryptedKey(key),
        );
        let present = await encryptCopy(storage, row.storage_key);
        for (const key of renditions) present = present && (await encryptCopy(storage, key));
        const copies = [row.storage_key, ...renditions].map(encryptedKey);
        const moved =
          present &&
          (await db.transaction().execute(async (trx) => {
            const result = await trx
              .updateTable('files')
              .set({
                storage_key: encryptedKey(row.storage_key),
                ...(row.thumbnail_key ? { thumbnail_key: encryptedKey(row.thumbnail_key) } : {}),
                ...(row.preview_key ? { preview_key: encryptedKey(row.preview_key) } : {}),
              })
              .where('id', '=', row.id)
              .where('storage_key', '=', row.storage_key)
              .where('rendition_status', '!=', 'pending')
              .executeTakeFirst();
            if (Number(result.numUpdatedRows) === 0) return false;
            await enqueueJob(
              trx,
              deleteFileObjectsJob,
              {
                payload: { keys: [row.storage_key, ...renditions] },
                runAt: clock() + linksOutlive,
              },
              clock,
            );
            return true;
          }));
        if (!moved) {
          // Deleted meanwhile, the copies belong to nothing; unless another run moved it first.
          const current = await db
            .selectFrom('files')
            .select('storage_key')
            .where('id', '=', row.id)
            .executeTakeFirst();
          if (current?.storage_key !== encryptedKey(row.storage_key)) {
            for (const key of copies) await storage.delete(key);
          }
        }
      }
      if (rows.length < BATCH) break;
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
