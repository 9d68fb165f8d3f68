import type { Config } from '../../src/config/config.js';

/** Tests that look at stored files on disk need the local driver; this says so when it is not. */
export function localStorageRoot(config: Config): string {
  if (config.storage.kind !== 'local') {
    throw new Error(
      `This test reads files on disk and needs STORAGE=local, not ${config.storage.kind}`,
    );
  }
  return config.storage.root;
}
