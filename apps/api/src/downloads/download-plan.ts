import type { Db } from '../db/create-db.js';
import type { Clock } from '../jobs/types.js';
import type { Config } from '../config/config.js';
import type { DownloadRow } from './downloads.presenter.js';
import { offeredFileName } from '../files/offered-name.js';
import { markDownloadFailed } from './download-outcome.js';
import { selectionOf } from './download-selection.js';
import { insertPlan, planState, selectionFiles } from './downloads.repository.js';
import { ARCHIVE_END_BOUND, entryBytesBound, safeEntryNames, shouldCompress } from './zip/index.js';

export interface PlannedFile {
  id: string;
  name: string;
  size: number;
  contentType: string;
}

export interface PlannedEntry {
  fileId: string;
  entryName: string;
  compress: boolean;
  part: number;
}

/**
 * Which part each file goes into, so that no part's zip can exceed `partMaxBytes` and the parts
 * are as few as the files allow: first-fit decreasing, the largest file first, each into the
 * first part with room for it (sizes bounded before a byte is written: headers, deflate's worst
 * case, the end records). A file too big for any part gets a part of its own. Within a part the
 * files keep the order they were uploaded in. Entry names are the files' offered names (an
 * extension of their sniffed type: offered-name.ts) made safe and unique, all under one folder
 * named after the collection, so the parts unzip into the same folder.
 */
export function planParts(
  files: readonly PlannedFile[],
  folder: string,
  partMaxBytes: number,
): { entries: PlannedEntry[]; parts: number[] } {
  const names = safeEntryNames(
    files.map((file) => offeredFileName(file.name, file.contentType)),
    folder,
  );
  const sized = files.map((file, index) => {
    const entryName = names[index] ?? file.id;
    const compress = shouldCompress(file.contentType);
    const bound = entryBytesBound({ name: entryName, size: file.size, compress });
    return { index, file, entryName, compress, bound };
  });
  // Largest first; equal sizes in upload order (sort is stable).
  const bySize = [...sized].sort((a, b) => b.bound - a.bound);
  const room = partMaxBytes - ARCHIVE_END_BOUND;
  const filled: number[] = [];
  const parts: number[] = [];
  const partOf: number[] = [];
  for (const item of bySize) {
    let index = filled.findIndex((bytes) => bytes + item.bound <= room);
    if (index === -1) {
      // A new part. A file bigger than a part is alone in its own: nothing fits beside it.
      index = filled.length;
      filled.push(0);
      parts.push(0);
    }
    filled[index] = (filled[index] ?? 0) + item.bound;
    parts[index] = (parts[index] ?? 0) + 1;
    partOf[item.index] = index + 1;
  }
  const entries = sized.map(({ index, file, entryName, compress }) => ({
    fileId: file.id,
    entryName,
    compress,
    part: partOf[index] ?? 1,
  }));
  return { entries, parts };
}

const INSERT_BATCH = 500;

/**
 * Plans a download once, in one transaction: the files of its selection as they were when it
 * was requested, their entry names and parts. A second run finds `total_parts` set and keeps it.
 */
export async function planDownload(
  deps: { db: Db; config: Config; clock: Clock },
  download: DownloadRow,
): Promise<void> {
  const { db, config, clock } = deps;
  await db.transaction().execute(async (trx) => {
    const current = await planState(trx, download.id);
    if (current?.status !== 'inProgress' || current.total_parts !== null) return;
    const files = await selectionFiles(trx, selectionOf(download));
    const now = clock();
    if (files.length === 0) {
      await markDownloadFailed(trx, deps, download.id, 'no files left to download');
      return;
    }
    const { entries, parts } = planParts(
      files,
      download.collection_name,
      config.downloads.partMaxBytes,
    );
    await insertPlan(
      trx,
      download.id,
      entries,
      parts,
      {
        fileCount: files.length,
        totalBytes: files.reduce((sum, file) => sum + file.size, 0),
        now,
      },
      INSERT_BATCH,
    );
  });
}
