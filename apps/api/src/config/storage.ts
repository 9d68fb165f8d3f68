import path from 'node:path';
import { z } from 'zod';
import { bool, invalid, type Base } from './env.js';

/** Where files are stored: under DATA_DIR, or in an S3-compatible bucket; signed links to them. */
export const storageEnv = z.object({
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_PREFIX: z.string().default(''),
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
});

export function storageConfig(e: z.output<typeof storageEnv>, base: Pick<Base, 'dataDir'>) {
  return { storage: store(e, base.dataDir), signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS };
}

function store(e: z.output<typeof storageEnv>, dataDir: string) {
  if (e.STORAGE === 'local') {
    const local = { kind: 'local' as const, root: path.join(dataDir, 'files') };
    return local;
  }
  if (!e.S3_BUCKET) throw invalid('S3_BUCKET', 'required when STORAGE=s3');
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw invalid('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY', 'set both or neither');
  }
  const prefix = e.S3_PREFIX.replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3' as const,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    /** Unset for AWS itself; the URL of MinIO, Ceph, R2… otherwise. */
    ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
    ...(e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID } : {}),
    ...(e.S3_SECRET_ACCESS_KEY ? { secretAccessKey: e.S3_SECRET_ACCESS_KEY } : {}),
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    /** Prepended to every key, so one bucket can hold several installations. */
    prefix: prefix ? `${prefix}/` : '',
  };
}
