// The storage integrity check (`npm run admin -- verify-storage`) over 1 GiB of originals on local
// disk, with no rate bound, against `sha256sum` of the same files, in alternate rounds after one
// warm-up of each (both then read from the page cache): throughput. Goal: at least 0.8×.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/db/ids.js';
import { fileKeys } from '../src/files/files.keys.js';
import { verifyStorage } from '../src/integrity/verify-storage.js';
import { createContext } from '../src/runtime.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import { createCollection } from '../test/files/files-world.js';
import type { BenchRow } from './file-list.bench.js';

const MIB = 1024 * 1024;
const FILES = 16;
const FILE_MIB = 64;
const ROUNDS = Number(process.env.BENCH_VERIFY_ROUNDS ?? 3);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function benchVerify(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-verify-'));
  const ctx = await createContext(
    loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: 'bench-secret-bench-secret-bench-secret',
      LOG_LEVEL: 'silent',
      SERVE_WEB: 'false',
      VERIFY_STORAGE_MAX_MB_PER_SECOND: '0',
    }),
  );
  try {
    const owner = await createUser(ctx, { email: 'bench@example.test' });
    const team = await createTeam(ctx, { owner });
    const collection = await createCollection(ctx, {
      teamId: team.id,
      createdBy: owner.id,
      mode: 'collaborative',
    });
    const paths: string[] = [];
    const block = randomBytes(MIB);
    for (let i = 0; i < FILES; i++) {
      const id = newId();
      const key = fileKeys({ teamId: team.id, collectionId: collection.id, fileId: id }).original;
      const hash = createHash('sha256');
      const put = await ctx.storage.put(
        key,
        Readable.from(
          (function* () {
            for (let m = 0; m < FILE_MIB; m++) {
              // Each file its own bytes: the first bytes of every MiB name the file and the MiB.
              const chunk = Buffer.from(block);
              chunk.writeUInt32LE(i, 0);
              chunk.writeUInt32LE(m, 4);
              hash.update(chunk);
              yield chunk;
            }
          })(),
        ),
      );
      const now = ctx.clock();
      await ctx.db
        .insertInto('files')
        .values({
          id,
          team_id: team.id,
          collection_id: collection.id,
          name: `file-${i}.bin`,
          original_name: `file-${i}.bin`,
          content_type: 'application/octet-stream',
          size: put.size,
          sha256: hash.digest('hex'),
          storage_key: key,
          uploaded_by: owner.id,
          rendition_status: 'none',
          thumbnail_key: null,
          preview_key: null,
          width: null,
          height: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      paths.push(path.join(dataDir, 'files', ...key.split('/')));
    }
    const bytes = FILES * FILE_MIB * MIB;

    const sha256sum = (): number => {
      const started = performance.now();
      const out = spawnSync('sha256sum', paths, { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`sha256sum failed: ${out.stderr}`);
      return performance.now() - started;
    };
    const verify = async (): Promise<number> => {
      const started = performance.now();
      const report = await verifyStorage(ctx, { maxBytesPerSecond: 0 });
      const ms = performance.now() - started;
      if (!report.complete || report.findings.length > 0 || report.bytesRead !== bytes)
        throw new Error(`verify-storage found problems: ${JSON.stringify(report.counts)}`);
      return ms;
    };

    sha256sum();
    await verify();
    const sums: number[] = [];
    const verifies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sums.push(sha256sum());
      verifies.push(await verify());
    }
    const sumMs = median(sums);
    const verifyMs = median(verifies);
    const mibPerSecond = (ms: number) => bytes / MIB / (ms / 1000);
    return [
      { name: 'sha256sum, 1 GiB in 16 files', ms: sumMs, ratio: 1 },
      { name: 'verify-storage, same files', ms: verifyMs, ratio: sumMs / verifyMs },
      { name: 'sha256sum throughput', ms: mibPerSecond(sumMs), ratio: 1, unit: 'MiB/s' },
      {
        name: 'verify-storage throughput',
        ms: mibPerSecond(verifyMs),
        ratio: mibPerSecond(verifyMs) / mibPerSecond(sumMs),
        unit: 'MiB/s',
      },
    ];
  } finally {
    await ctx.db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
