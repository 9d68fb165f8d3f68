import { ConfigError, loadConfig } from '../config/config.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

const config = loadConfig();
const db = createDb(config.database);
try {
  const result = await migrateToLatest(db);
  const applied = result.results ?? [];
  console.log(
    applied.length
      ? applied.map((r) => `${r.status}: ${r.migrationName}`).join('\n')
      : 'Database is up to date',
  );
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
