import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob, PermanentJobError } from '../jobs/define-job.js';
import { exponentialBackoff } from '../jobs/backoff.js';
import type { Clock, JobRun } from '../jobs/types.js';
import type { Metrics } from '../metrics/metrics.js';
import { StorageNotFoundError, type Storage } from '../storage/storage.js';
import { encryptsFiles } from '../files/files.keys.js';
import { markDownloadFailed, markDownloadReady } from './download-outcome.js';
import { partKey } from './downloads.keys.js';
import type { DownloadRow } from './downloads.presenter.js';
import { planDownload } from './download-plan.js';
import {
  findDownloadById,
  missingPartNumbers,
  partEntryBatch,
  recordStoredPart,
} from './downloads.repository.js';
import { findTeamById } from '../teams/teams.repository.js';
import { zipStream, type ZipEntry } from './zip/index.js';

export interface BuildDownloadDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
  metrics: Pick<Metrics, 'archiveBuildDuration'>;
}

/** Entries read from the plan at a time, so a part of any size is archived in flat memory. */
const ENTRY_BATCH = 500;

/**
 * The part's entries in archive order, read from the plan in batches. A file deleted since the
 * plan, or whose object is gone, is left out; `counted.files` says how many went in.
 */
async function* partEntries(
  deps: BuildDownloadDeps,
  download: DownloadRow,
  partNumber: number,
  counted: { files: number },
): AsyncGenerator<ZipEntry> {
  const { db, storage } = deps;
  let after = -1;
  for (;;) {
    const batch = await partEntryBatch(db, download, partNumber, after, ENTRY_BATCH);
    for (const entry of batch) {
      after = entry.position;
      if (entry.storage_key === null || entry.size === null || entry.created_at === null) continue;
      let source: Readable;
      try {
        source = await storage.get(entry.storage_key);
      } catch (err) {
        if (err instanceof StorageNotFoundError) continue;
        throw err;
      }
      counted.files += 1;
      yield {
        name: entry.entry_name,
        size: entry.size,
        mtime: new Date(entry.created_at),
        compress: entry.compress === 1,
        open: () => Promise.resolve(source),
      };
    }
    if (batch.length < ENTRY_BATCH) return;
  }
}

/** Writes one part and records it; false when its download is gone, and the part with it. */
async function buildPart(
  deps: BuildDownloadDeps,
  download: DownloadRow,
  partNumber: number,
  job: JobRun,
  /** Stored encrypted: the team's files are (the premium plan). */
  encrypted: boolean,
): Promise<boolean> {
  const { db, storage, clock } = deps;
  const key = partKey(download.id, partNumber, encrypted);
  const counted = { files: 0 };
  const timer = deps.metrics.archiveBuildDuration.startTimer();
  // put is atomic: the key holds either nothing or a complete zip, never a half-written one.
  const stored = await storage.put(
    key,
    zipStream(partEntries(deps, download, partNumber, counted), { signal: job.signal }),
    // No digest: a part records its size; its zip carries a CRC-32 of every entry.
    { contentType: 'application/zip', digest: false },
  );
  job.signal.throwIfAborted();
  timer();
  const now = clock();
  const recorded = await recordStoredPart(db, download.id, partNumber, {
    key,
    size: stored.size,
    fileCount: counted.files,
    now,
  });
  if (!recorded) {
    // The download went meanwhile (its collection was deleted): nothing will ever offer this part.
    await storage.delete(key);
    return false;
  }
  return true;
}

async function build(deps: BuildDownloadDeps, downloadId: string, job: JobRun): Promise<void> {
  const { db } = deps;
  let download = await findDownloadById(db, downloadId);
  if (download?.status !== 'inProgress') return;
  if (download.total_parts === null) {
    await planDownload(deps, download);
    download = await findDownloadById(db, downloadId);
    if (download?.status !== 'inProgress') return;
  }
  // Parts stored by an earlier run stay: a crash costs only the part that was being written.
  const missing = await missingPartNumbers(db, download.id);
  const team = await findTeamById(db, download.team_id);
  const encrypted = team !== undefined && encryptsFiles(team);
  for (const partNumber of missing) {
    job.signal.throwIfAborted();
    if (!(await buildPart(deps, download, partNumber, job, encrypted))) return;
  }
  await deps.db.transaction().execute((trx) => markDownloadReady(trx, deps, download));
}

/**
 * Builds a collection download: plans it once, then writes each missing part as a zip streamed
 * into storage. Idempotent: a run after a crash (or a second worker after a lost lease) finds the
 * plan and the stored parts, and writes only what is missing. A build that keeps failing ends as
 * `failed` rather than in progress forever.
 */
export const buildDownloadJob = defineJob({
  queue: 'downloads.build',
  schema: z.object({ downloadId: z.uuid() }),
  maxAttempts: 5,
  backoff: exponentialBackoff({ baseMs: 5_000, maxMs: 5 * 60_000 }),
  handler: async (deps: BuildDownloadDeps, { downloadId }, job) => {
    const { db } = deps;
    // A worker killed on every run (the lease ran out each time) never reached the catch below.
    if (job.attempt > job.maxAttempts) {
      await db
        .transaction()
        .execute((trx) =>
          markDownloadFailed(trx, deps, downloadId, 'the build was interrupted too many times'),
        );
      return;
    }
    try {
      await build(deps, downloadId, job);
    } catch (err) {
      if (job.signal.aborted) throw err;
      if (err instanceof PermanentJobError || job.attempt >= job.maxAttempts) {
        const message = err instanceof Error ? err.message : String(err);
        await db.transaction().execute((trx) => markDownloadFailed(trx, deps, downloadId, message));
      }
      throw err;
    }
  },
});
