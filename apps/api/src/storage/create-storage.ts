import type { Config } from '../config/config.js';
import type { Clock } from '../context.js';
import { createLocalStorage } from './local-storage.js';
import { createS3Storage, s3ClientConfig } from './s3-storage.js';
import type { Storage } from './storage.js';

/** The driver STORAGE names, built from the parsed configuration. */
export function createStorage(config: Config, clock: Clock): Storage {
  const dateClock = (): Date => new Date(clock());
  const { storage } = config;
  if (storage.kind === 's3') {
    return createS3Storage({
      bucket: storage.bucket,
      prefix: storage.prefix,
      client: s3ClientConfig(storage),
      clock: dateClock,
    });
  }
  return createLocalStorage({
    root: storage.root,
    signingSecret: config.secret,
    publicBaseUrl: config.apiPublicUrl,
    clock: dateClock,
  });
}
