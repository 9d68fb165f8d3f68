// What the list benchmarks set up alike: the API (createServer, no worker) on a fresh test
// database, and the rows of one collection and its files, inserted directly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Insertable } from 'kysely';
import { loadConfig } from '../src/config/config.js';
import type { CollectionsTable, FilesTable } from '../src/db/database.js';
import { newId } from '../src/db/ids.js';
import { createServer } from '../src/server.js';
import { createTestDatabase, type TestDatabase } from '../test/helpers/test-db.js';

export interface BenchServer {
  database: TestDatabase;
  server: Awaited<ReturnType<typeof createServer>>;
  close: () => Promise<void>;
}

/** The API on a new test database (SQLite unless RACCOLTA_TEST_DB says otherwise). */
export async function startBenchServer(env: Record<string, string>): Promise<BenchServer> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    SERVE_WEB: 'false',
    ...env,
  });
  config.database = database.config;
  const server = await createServer(config, { worker: false });
  return {
    database,
    server,
    close: async () => {
      await server.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A ready collection row, created and last updated by `ownerId` at `at`. */
export function collectionRow(
  teamId: string,
  ownerId: string,
  at: number,
  fields: Partial<Insertable<CollectionsTable>> = {},
): Insertable<CollectionsTable> {
  return {
    id: newId(),
    team_id: teamId,
    name: 'Bench',
    description: null,
    mode: 'collaborative',
    status: 'ready',
    files_count: 0,
    created_at: at,
    created_by: ownerId,
    updated_at: at,
    updated_by: ownerId,
    ...fields,
  };
}

/** `count` 1 MB photos uploaded by `ownerId`, oldest first, one millisecond apart up to `now`. */
export function fileRows(
  teamId: string,
  collectionId: string,
  ownerId: string,
  count: number,
  now: number,
): Insertable<FilesTable>[] {
  return Array.from({ length: count }, (_, i) => {
    const id = newId();
    return {
      id,
      team_id: teamId,
      collection_id: collectionId,
      name: `photo-${i}.jpg`,
      original_name: `photo-${i}.jpg`,
      content_type: 'image/jpeg',
      size: 1_000_000,
      sha256: '0'.repeat(64),
      storage_key: `teams/${teamId}/collections/${collectionId}/${id}/original`,
      uploaded_by: ownerId,
      rendition_status: 'none',
      thumbnail_key: null,
      preview_key: null,
      width: null,
      height: null,
      created_at: now - count + i,
      updated_at: now - count + i,
    };
  });
}
