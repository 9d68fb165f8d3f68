import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { Clock } from '../jobs/types.js';
import { copyObject, type Storage } from '../storage/storage.js';
import { deleteFileObjectsJob } from './delete-file-objects.job.js';

export interface MoveFileObjectsDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
}

/** A file row's stored objects, as the jobs that move them read it. */
export interface FileObjectsRow {
  id: string;
  storage_key: string;
  thumbnail_key: string | null;
  preview_key: string | null;
  rendition_status: string;
}

const BATCH = 20;

/** Every file (of one team, when given), by id, read a batch at a time. */
export async function* filesByBatch(db: Db, teamId?: string): AsyncGenerator<FileObjectsRow> {
  let after = '';
  for (;;) {
    let query = db
      .selectFrom('files')
      .select(['id', 'storage_key', 'thumbnail_key', 'preview_key', 'rendition_status'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH);
    if (teamId !== undefined) query = query.where('team_id', '=', teamId);
    const rows = await query.execute();
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = last.id;
  }
}

/**
 * Copies some of a file's objects to new keys through the storage (`copies`: from → to), points
 * its row at the copies, and has the worker delete the objects it pointed at once every link
 * handed out for them has expired (SIGNED_URL_TTL_SECONDS, and a minute more). The row moves only
 * from the keys that were copied and while no rendition is being made, so a file deleted or
 * changed meanwhile, or moved by another run first, keeps its keys; copies its row does not point
 * at are then removed. True when the row was moved.
 */
export async function moveFileObjects(
  { config, db, storage, clock }: MoveFileObjectsDeps,
  row: FileObjectsRow,
  copies: ReadonlyMap<string, string>,
): Promise<boolean> {
  let present = true;
  for (const [from, to] of copies) present = present && (await copyObject(storage, from, to));
  const moved = (key: string | null) => (key === null ? null : (copies.get(key) ?? key));
  const done =
    present &&
    (await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('files')
        .set({
          storage_key: copies.get(row.storage_key) ?? row.storage_key,
          thumbnail_key: moved(row.thumbnail_key),
          preview_key: moved(row.preview_key),
        })
        .where('id', '=', row.id)
        .where('storage_key', '=', row.storage_key)
        .where('thumbnail_key', row.thumbnail_key === null ? 'is' : '=', row.thumbnail_key)
        .where('preview_key', row.preview_key === null ? 'is' : '=', row.preview_key)
        .where('rendition_status', '!=', 'pending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await enqueueJob(
        trx,
        deleteFileObjectsJob,
        {
          payload: { keys: [...copies.keys()] },
          runAt: clock() + config.signedUrlTtlSeconds * 1000 + 60_000,
        },
        clock,
      );
      return true;
    }));
  if (done) return true;
  const current = await db
    .selectFrom('files')
    .select(['storage_key', 'thumbnail_key', 'preview_key'])
    .where('id', '=', row.id)
    .executeTakeFirst();
  const kept = new Set(
    current ? [current.storage_key, current.thumbnail_key, current.preview_key] : [],
  );
  for (const copy of copies.values()) if (!kept.has(copy)) await storage.delete(copy);
  return false;
}
