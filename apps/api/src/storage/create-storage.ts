import type { Config } from '../config/config.js';
import type { Clock } from '../context.js';
import { withEncryption } from './encrypting-storage.js';
import { StorageCipher } from './encryption.js';
import { createLocalStorage } from './local-storage.js';
import { createS3Storage, s3ClientConfig } from './s3-storage.js';
import type { Storage } from './storage.js';

/**
 * The driver STORAGE names, built from the parsed configuration, behind the layer that encrypts
 * the objects written under `.enc` keys (the premium plan's) with STORAGE_ENCRYPTION_KEY, and reads
 * those written before a rotation with STORAGE_ENCRYPTION_PREVIOUS_KEYS.
 */
export function createStorage(config: Config, clock: Clock): Storage {
  const dateClock = (): Date => new Date(clock());
  return withEncryption(
    createDriver(config, dateClock),
    new StorageCipher(config.storageEncryptionKey, config.storageEncryptionPreviousKeys),
    { signingSecret: config.secret, publicBaseUrl: config.apiPublicUrl, clock: dateClock },
  );
}

function createDriver(config: Config, dateClock: () => Date): Storage {
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
