import { ConfigError, loadConfig } from '../config/config.js';
import { createContext } from '../runtime.js';
import { AdminCommandError, runAdminCommand, runStorageCommand } from './admin-commands.js';
import { BackupError } from '../backup/manifest.js';

/** `npm run admin -- <command> …`: administration on the configured database. */
try {
  const config = loadConfig();
  const args = process.argv.slice(2);
  // Backups and restores work on the database as it is: they neither migrate it nor need it.
  const output =
    (await runStorageCommand(config, args)) ??
    (await (async () => {
      const ctx = await createContext({ ...config, logLevel: 'warn' });
      try {
        return await runAdminCommand(ctx, args);
      } finally {
        await ctx.db.destroy();
      }
    })());
  console.log(output);
} catch (err) {
  console.error(
    err instanceof ConfigError || err instanceof AdminCommandError || err instanceof BackupError
      ? err.message
      : err,
  );
  process.exitCode = 1;
}
