import { z } from 'zod';

/** `npm run admin -- backup|restore` on PostgreSQL: its client programs, on PATH by default. */
export const backupEnv = z.object({
  PG_DUMP_PATH: z.string().min(1).default('pg_dump'),
  PG_RESTORE_PATH: z.string().min(1).default('pg_restore'),
});

export function backupConfig(e: z.output<typeof backupEnv>) {
  return {
    /** The PostgreSQL client programs backups and restores run. */
    backup: { pgDumpPath: e.PG_DUMP_PATH, pgRestorePath: e.PG_RESTORE_PATH },
  };
}
