import { z } from 'zod';

/** `true`/`false`, `1`/`0` or `yes`/`no`. */
export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Values separated by commas; blanks around them and empty entries are dropped. */
export const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export class ConfigError extends Error {}

/** The start-up error for settings that are each valid but do not go together. */
export function invalid(setting: string, message: string): ConfigError {
  return new ConfigError(`Invalid configuration:\n  ${setting}: ${message}`);
}

/** What the sections built first (server, database, storage) give the others. */
export interface Base {
  /** DATA_DIR, absolute. */
  dataDir: string;
  /** PUBLIC_URL, or its default, without a trailing slash. */
  publicUrl: string;
  databaseKind: 'sqlite' | 'postgres';
  storageKind: 'local' | 's3';
}
