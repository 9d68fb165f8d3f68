import type { Download, DownloadPart } from '@raccolta/contracts';
import type { DownloadPartRow, DownloadRow } from '../db/rows.js';

export type { DownloadPartRow, DownloadRow };

export function presentPart(row: DownloadPartRow): DownloadPart {
  const ready = row.storage_key !== null;
  return {
    partId: row.part_number,
    status: ready ? 'ready' : 'inProgress',
    fileCount: row.file_count,
    size: ready ? row.size : null,
  };
}

export function presentDownload(row: DownloadRow, parts: DownloadPartRow[]): Download {
  // An expired or failed download offers no part, whatever was stored before.
  const offered = row.status === 'ready' || row.status === 'inProgress';
  const shown = offered ? parts.map(presentPart) : [];
  return {
    requestId: row.id,
    teamId: row.team_id,
    collectionId: row.collection_id,
    collectionName: row.collection_name,
    status: row.status,
    totalParts: row.total_parts,
    readyParts: offered ? shown.filter((part) => part.status === 'ready').length : 0,
    fileCount: row.file_count,
    totalBytes: row.total_bytes,
    parts: shown,
    createdAt: new Date(row.created_at).toISOString(),
    readyAt: row.ready_at === null ? null : new Date(row.ready_at).toISOString(),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
  };
}
