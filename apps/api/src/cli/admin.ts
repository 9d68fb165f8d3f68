import { ConfigError, loadConfig } from '../config/config.js';
import { createContext } from '../runtime.js';
import { AdminCommandError, runAdminCommand } from './admin-commands.js';

/** `npm run admin -- <command> …`: administration on the configured database. */
try {
  const config = loadConfig();
  const ctx = await createContext({ ...config, logLevel: 'warn' });
  try {
    console.log(await runAdminCommand(ctx, process.argv.slice(2)));
  } finally {
    await ctx.db.destroy();
  }
} catch (err) {
  console.error(err instanceof ConfigError || err instanceof AdminCommandError ? err.message : err);
  process.exitCode = 1;
}
