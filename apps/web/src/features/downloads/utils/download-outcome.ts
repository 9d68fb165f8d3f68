import type { Download, DownloadPart } from '@raccolta/contracts';

/**
 * Where a requested download has got to, as the tracker reads it. Null: still being prepared,
 * in one part or in several (spec §3 stops polling once totalParts is above 1; the tracker goes on
 * until every part is ready, so a download in parts says "ready" too: docs/decisions.md).
 * - `ready`: every part stored: "Download now" for one, "Open" (each part's button) for several.
 * - `failed` / `expired`: nothing to download; request it again.
 */
export type DownloadOutcome = 'ready' | 'failed' | 'expired';

export function downloadOutcome(download: Download): DownloadOutcome | null {
  if (download.status === 'failed') return 'failed';
  if (download.status === 'expired') return 'expired';
  if (download.status === 'ready') return 'ready';
  return null;
}

/** A download being prepared that is known to come in several parts: their number. */
export function partsComing(download: Download): number | null {
  return download.status === 'inProgress' && download.totalParts !== null && download.totalParts > 1
    ? download.totalParts
    : null;
}

/**
 * Every part of the download, in order: the planned ones the API lists, and a placeholder still
 * in progress for any part it does not list yet.
 */
export function partsOf(download: Download): DownloadPart[] {
  const total = download.totalParts ?? download.parts.length;
  const byId = new Map(download.parts.map((part) => [part.partId, part]));
  return Array.from({ length: total }, (_, index) => {
    const partId = index + 1;
    return byId.get(partId) ?? { partId, status: 'inProgress', fileCount: 0, size: null };
  });
}
