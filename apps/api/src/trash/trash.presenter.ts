import type { MemberRef, TrashItem } from '@raccolta/contracts';
import type { TrashRow } from './trash.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Trash rows as the API shows them, with who deleted each and when it will be purged. */
export function presentTrash(
  rows: TrashRow[],
  deleters: Map<string, MemberRef>,
  trashDays: number,
): TrashItem[] {
  return rows.map((row) => ({
    itemId: row.id,
    kind: row.kind,
    name: row.name,
    collectionId: row.collection_id,
    collectionName: row.collection_name,
    size: row.size,
    fileCount: row.file_count,
    contentType: row.content_type,
    deletedBy: deleters.get(row.deleted_by) ?? {
      userId: row.deleted_by,
      nickname: null,
      avatarUrl: null,
    },
    deletedAt: new Date(row.deleted_at).toISOString(),
    purgeAt: new Date(row.deleted_at + trashDays * DAY_MS).toISOString(),
  }));
}
