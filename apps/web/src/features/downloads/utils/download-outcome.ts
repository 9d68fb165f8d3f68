import type { Download, DownloadPart } from '@raccolta/contracts';

/**
 * Where a requested download has got to, as the tracker reads it (spec §3 "Download request":
 * polled until status is ready, failed, or totalParts is above 1). Null: still being prepared.
 * - `ready`: one part, ready: "Download now".
 * - `parts`: several parts; the download page offers each as it is stored (the e-mail says when
 *   all are).
 * - `failed` / `expired`: nothing to download; request it again.
 */
export type DownloadOutcome = 'ready' | 'parts' | 'failed' | 'expired';

export function downloadOutcome(download: Download): DownloadOutcome | null {
  if (download.status === 'failed') return 'failed';
  if (download.status === 'expired') return 'expired';
  if (download.totalParts !== null && download.totalParts > 1) return 'parts';
  if (download.status === 'ready') return 'ready';
  return null;
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
