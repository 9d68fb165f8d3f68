import { sql } from 'kysely';
import type { Db } from '../db/create-db.js';
import { escapeLike, likeEscaped } from '../db/like.js';
import type { DownloadRow } from './downloads.presenter.js';

export interface DownloadSelection {
  teamId: string;
  collectionId: string;
  prefix: string | null;
  fileIds: string[] | null;
  /** Only files stored by then: a download is the collection as it was when requested. */
  createdUpTo: number;
}

/** The files of a download's selection, as a query to add columns and order to. */
export function selectionQuery(db: Db, selection: DownloadSelection) {
  let query = db
    .selectFrom('files')
    .where('files.team_id', '=', selection.teamId)
    .where('files.collection_id', '=', selection.collectionId)
    .where('files.created_at', '<=', selection.createdUpTo);
  if (selection.prefix !== null)
    query = query.where(likeEscaped(sql.ref('files.name'), `${escapeLike(selection.prefix)}%`));
  if (selection.fileIds !== null) query = query.where('files.id', 'in', selection.fileIds);
  return query;
}

export function selectionOf(row: DownloadRow): DownloadSelection {
  return {
    teamId: row.team_id,
    collectionId: row.collection_id,
    prefix: row.prefix,
    fileIds: row.file_ids === null ? null : (JSON.parse(row.file_ids) as string[]),
    createdUpTo: row.created_at,
  };
}
