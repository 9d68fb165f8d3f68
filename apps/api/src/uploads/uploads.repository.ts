import type { Db } from '../db/create-db.js';
import type { UploadRow } from '../db/rows.js';

export type { UploadRow };

export async function insertUpload(db: Db, row: UploadRow): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

export function findUpload(db: Db, id: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** uploading → completed, once: false when another request or process got there first. */
export async function claimUpload(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ status: 'completed' })
    .where('id', '=', id)
    .where('status', '=', 'uploading')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteUpload(db: Db, id: string): Promise<void> {
  await db.deleteFrom('uploads').where('id', '=', id).execute();
}

export function listExpiredUploads(db: Db, now: number, limit: number): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('expires_at', '<', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}
