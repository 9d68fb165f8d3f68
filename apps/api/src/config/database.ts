import path from 'node:path';
import { z } from 'zod';
import type { Base } from './env.js';

/** The database: SQLite under DATA_DIR by default, or PostgreSQL. */
export const databaseEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'DATABASE_URL must start with postgres:// or sqlite:')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SQLITE_DRIVER: z.enum(['auto', 'node', 'better-sqlite3']).default('auto'),
});

type SqliteDriver = z.output<typeof databaseEnv>['SQLITE_DRIVER'];

export function databaseConfig(e: z.output<typeof databaseEnv>, base: Pick<Base, 'dataDir'>) {
  const url = e.DATABASE_URL;
  return {
    database:
      url && !url.startsWith('sqlite:')
        ? postgres(url, e.DATABASE_POOL_SIZE)
        : sqlite(
            url
              ? path.resolve(url.slice('sqlite:'.length))
              : path.join(base.dataDir, 'raccolta.db'),
            e.SQLITE_DRIVER,
          ),
  };
}

function postgres(url: string, poolSize: number) {
  return { kind: 'postgres' as const, url, poolSize };
}

/** `driver` is optional in the type: a database made elsewhere (tests) may leave it to `auto`. */
function sqlite(file: string, driver?: SqliteDriver) {
  return { kind: 'sqlite' as const, file, ...(driver ? { driver } : {}) };
}
