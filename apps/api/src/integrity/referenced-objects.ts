import type { Db } from '../db/create-db.js';
import { partKey } from '../downloads/downloads.keys.js';
import { deleteFileObjectsJob } from '../files/delete-file-objects.job.js';
import { objectKeysOf, type FileData } from '../trash/trash.repository.js';

/** What the database claims in storage: an object it claims is no orphan. */
export interface ClaimedObjects {
  claims(key: string): boolean;
}

const BATCH = 1000;
/** `uploads/<id>`, `uploads/<id>.info`, `.part`, `.enc`: the S3 tus store's objects of an upload. */
const TUS_OBJECT = /^uploads\/([^/.]+)(?:\.[^/]*)?$/;

/**
 * Reads every key the database refers to, tables in an order that loses none to a deletion in
 * between: the rows that point at objects first (files and the trash, download parts, uploads), then what
 * their deletion hands the keys to (storage_deletions, the delete jobs). A row read before it is
 * deleted has its keys here already; one deleted before it is read has queued them.
 * Held in memory: about a hundred bytes per key.
 */
export async function referencedObjects(db: Db): Promise<ClaimedObjects> {
  const keys = new Set<string>();
  const uploads = new Set<string>();
  // Files in the trash keep their objects. A file moves between `files` and `trash` in one
  // transaction either way (deleted, restored), so the trash is read before and after `files`:
  // whichever way it moved meanwhile, one of the reads saw it.
  const addTrashed = async () => {
    for (const row of await db
      .selectFrom('trash')
      .select('data')
      .where('kind', '=', 'file')
      .execute())
      for (const key of objectKeysOf(JSON.parse(row.data) as FileData)) keys.add(key);
  };
  await addTrashed();

  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('files')
      .select(['id', 'storage_key', 'thumbnail_key', 'preview_key'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      keys.add(row.storage_key);
      if (row.thumbnail_key !== null) keys.add(row.thumbnail_key);
      if (row.preview_key !== null) keys.add(row.preview_key);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) break;
    after = last.id;
  }

  await addTrashed();

  // A part is stored before its row says so: both keys it may have are claimed, as the expiry
  // job deletes both.
  const parts = await db
    .selectFrom('download_parts')
    .select(['download_id', 'part_number', 'storage_key'])
    .execute();
  for (const part of parts) {
    if (part.storage_key !== null) keys.add(part.storage_key);
    keys.add(partKey(part.download_id, part.part_number));
    keys.add(partKey(part.download_id, part.part_number, true));
  }

  // Uploads in progress (or completed and not yet released): their tus objects on S3.
  for (const row of await db.selectFrom('uploads').select('id').execute()) uploads.add(row.id);

  for (const row of await db.selectFrom('storage_deletions').select('key').execute())
    keys.add(row.key);

  // Objects a move left behind, deleted once the links handed out for them expire.
  const jobs = await db
    .selectFrom('jobs')
    .select('payload')
    .where('queue', '=', deleteFileObjectsJob.queue)
    .where('status', 'in', ['pending', 'running'])
    .execute();
  for (const job of jobs) {
    const parsed = parsePayloadKeys(job.payload);
    for (const key of parsed) keys.add(key);
  }

  return {
    claims(key) {
      if (keys.has(key)) return true;
      const upload = TUS_OBJECT.exec(key);
      return upload !== null && uploads.has(upload[1] ?? '');
    },
  };
}

function parsePayloadKeys(payload: string): string[] {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value === 'object' && value !== null && 'keys' in value) {
      const { keys } = value;
      if (Array.isArray(keys)) return keys.filter((k): k is string => typeof k === 'string');
    }
  } catch {
    // Not ours to judge: the job fails on it by itself.
  }
  return [];
}
