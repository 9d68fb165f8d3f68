// `npm run bench`: every benchmark prints its figures as ratios against a baseline measured in
// the same run, so results compare across machines. docs/benchmarks.md keeps the latest figures.
import { benchBackup } from './backup.bench.js';
import { benchDownloads } from './download.bench.js';
import { benchFileList } from './file-list.bench.js';
import { benchFirstLoad, benchPhoneLink } from './first-load.bench.js';
import { benchHash } from './hash.bench.js';
import { benchListLoad } from './list-load.bench.js';
import { benchMigrations } from './migrations.bench.js';
import { benchOffload } from './offload.bench.js';
import { benchPagination } from './pagination.bench.js';
import { benchRenditionMemory } from './rendition-memory.bench.js';
import { benchStream } from './stream.bench.js';
import { benchThumbnails } from './thumbnails.bench.js';
import { benchUploads } from './upload.bench.js';
import { benchVerify } from './verify.bench.js';

interface Row {
  name: string;
  /** Milliseconds unless `unit` says otherwise. */
  ms: number;
  ratio: number;
  unit?: string;
}

const suites: { name: string; run: () => Promise<Row[]> }[] = [
  { name: `Pagination over ${(100_020).toLocaleString('en')} rows (SQLite)`, run: benchPagination },
  {
    name: 'File list of a 100,000-file collection through the API (SQLite)',
    run: () => benchFileList('sqlite'),
  },
];
if (process.env.TEST_DATABASE_URL)
  suites.push({
    name: 'File list of a 100,000-file collection through the API (PostgreSQL)',
    run: () => benchFileList('postgres'),
  });
else
  console.log(
    'PostgreSQL file-list benchmark skipped: set TEST_DATABASE_URL=postgres://… to run it.',
  );
suites.push({
  name: 'Migrations that rewrite a table, at 1,000,000 rows (SQLite; ratio: against one set-based UPDATE of the same rows)',
  run: benchMigrations,
});
suites.push({
  name: 'Authenticated lists under load, 50 connections (goals: API p99 <= 50 ms, API >= 0.7 x the floor; ratio: requests per second against the bare page, median of alternate rounds)',
  run: benchListLoad,
});
suites.push({ name: 'Thumbnails and previews (ratio: images per second)', run: benchThumbnails });
suites.push({
  name: 'Rendition memory: ten 150 MB TIFFs through the API worker (ratio: RSS growth against the 150 MB goal)',
  run: benchRenditionMemory,
});
suites.push({
  name: 'Uploads through tus on local disk (ratio: throughput against a bare Node server)',
  run: benchUploads,
});

suites.push({
  name: 'A 1 GiB file by signed link on local disk (ratio: throughput against a bare Node server, alternate rounds)',
  run: benchStream,
});

suites.push({
  name: 'DOWNLOAD_OFFLOAD=nginx: a 1 GiB file by signed link (ratio: throughput against nginx serving it as a static file)',
  run: benchOffload,
});

suites.push({
  name: 'Collection downloads: a 1 GiB zip (ratio: throughput against zip -0 -r)',
  run: benchDownloads,
});

suites.push({
  name: 'verify-storage over originals on local disk, 1 GiB (BENCH_VERIFY_FILES=160: 10 GiB) (ratio: throughput against sha256sum)',
  run: benchVerify,
});

suites.push({
  name: 'Backup of 100,000 files and 10 GiB on local disk and SQLite (ratio: against a stat of every object plus a copy of the new ones)',
  run: benchBackup,
});

suites.push({
  name: 'First load in Chromium: bytes per route and the landing page’s largest paint',
  run: benchFirstLoad,
});

suites.push({
  name: 'Phone link in Chromium (150 ms RTT, 6.4 Mbit/s): first visit until the collections show (ratio: against the goal)',
  run: benchPhoneLink,
});

suites.push({
  name: 'SHA-256 of a 1 GiB file in Chromium before an upload: the hashing worker (hash worker; ratio: throughput against sha256sum, goal >= 0.5)',
  run: benchHash,
});

const only = process.argv.slice(2);
for (const suite of suites) {
  if (only.length && !only.some((word) => suite.name.toLowerCase().includes(word))) continue;
  console.log(`\n${suite.name}`);
  for (const r of await suite.run()) {
    console.log(
      `  ${r.name.padEnd(44)} ${r.ms.toFixed(3).padStart(10)} ${(r.unit ?? 'ms').padEnd(2)}   x${r.ratio.toFixed(2)}`,
    );
  }
}
