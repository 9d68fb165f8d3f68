import { readdir } from 'node:fs/promises';
import { createLocalStorage } from '../../src/storage/local-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { testS3Storage } from '../../src/storage/testing/drivers.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import type { ServerOptions } from '../../src/server.js';

export type StorageKind = 'local' | 's3';
export const STORAGE_KINDS: StorageKind[] = ['local', 's3'];

/** A test server on local disk or on a fresh s3rver, stopped together. */
export interface UploadServer extends TestServer {
  s3: TestS3 | null;
  /** Names of what the tus store keeps for uploads in progress (files or objects). */
  tusLeftovers(): Promise<string[]>;
}

export async function startUploadServer(
  kind: StorageKind,
  env: Record<string, string> = {},
  options: ServerOptions = {},
): Promise<UploadServer> {
  const s3 = kind === 's3' ? await startTestS3({ prefix: 'tenant-a' }) : null;
  const server = await startTestServer(
    { RATE_LIMIT_MAX: '100000', ...(s3?.env ?? {}), ...env },
    options,
  );
  return {
    ...server,
    s3,
    async tusLeftovers() {
      if (!s3) return readdir(server.config.uploadsDir).catch(() => []);
      const dir = await readdir(s3.directory, { recursive: true });
      return dir.filter((name) => /uploads\/[^/]+\.(info|part)/.test(name));
    },
    async close() {
      await server.close();
      await s3?.close();
    },
  };
}

/** The server's storage driver itself, under the encryption layer: what lies in the storage. */
export function rawStorage(server: UploadServer): Storage {
  const { storage } = server.config;
  if (storage.kind === 's3') {
    if (!server.s3) throw new Error('no s3 server');
    return testS3Storage(server.s3, { prefix: storage.prefix });
  }
  return createLocalStorage({
    root: storage.root,
    signingSecret: 'unused-unused-unused-unused-unused',
    publicBaseUrl: 'http://unused',
  });
}
