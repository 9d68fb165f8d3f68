import { z } from 'zod';
import { authConfig, authEnv } from './auth.js';
import { backupConfig, backupEnv } from './backup.js';
import { databaseConfig, databaseEnv } from './database.js';
import { downloadsConfig, downloadsEnv } from './downloads.js';
import { ConfigError } from './env.js';
import { integrityConfig, integrityEnv } from './integrity.js';
import { jobsConfig, jobsEnv } from './jobs.js';
import { mailConfig, mailEnv } from './mail.js';
import { metricsConfig, metricsEnv } from './metrics.js';
import { rateLimitConfig, rateLimitEnv } from './rate-limit.js';
import { remindersConfig, remindersEnv } from './reminders.js';
import { secretsConfig, secretsEnv } from './secrets.js';
import { serverConfig, serverEnv } from './server.js';
import { storageConfig, storageEnv } from './storage.js';
import { teamsConfig, teamsEnv } from './teams.js';
import { trashConfig, trashEnv } from './trash.js';
import { uploadsConfig, uploadsEnv } from './uploads.js';
import { webClientConfig, webClientEnv } from './web-client.js';

export { ConfigError } from './env.js';
export type { MailTransportConfig } from './mail.js';
export type { OidcProviderConfig } from './auth.js';

/**
 * Every setting the server reads, one zod object per section (each in its own file, with the
 * function that turns its variables into its part of the Config). `.env.example` documents each
 * variable with its default; `config.test.ts` checks it against these schemas.
 */
export const envSections = {
  server: serverEnv,
  database: databaseEnv,
  storage: storageEnv,
  secrets: secretsEnv,
  mail: mailEnv,
  jobs: jobsEnv,
  auth: authEnv,
  teams: teamsEnv,
  uploads: uploadsEnv,
  downloads: downloadsEnv,
  integrity: integrityEnv,
  rateLimit: rateLimitEnv,
  metrics: metricsEnv,
  trash: trashEnv,
  reminders: remindersEnv,
  backup: backupEnv,
  webClient: webClientEnv,
};

export const envSchema = z.object({
  ...serverEnv.shape,
  ...databaseEnv.shape,
  ...storageEnv.shape,
  ...secretsEnv.shape,
  ...mailEnv.shape,
  ...jobsEnv.shape,
  ...authEnv.shape,
  ...teamsEnv.shape,
  ...uploadsEnv.shape,
  ...downloadsEnv.shape,
  ...integrityEnv.shape,
  ...rateLimitEnv.shape,
  ...metricsEnv.shape,
  ...trashEnv.shape,
  ...remindersEnv.shape,
  ...backupEnv.shape,
  ...webClientEnv.shape,
});

export type Env = z.output<typeof envSchema>;

/** The server's configuration: the sections' parts, as their functions make them. */
export type Config = ReturnType<typeof buildConfig>;

/** Parses the environment into a Config. Throws ConfigError naming every bad setting. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // `NAME=` (as .env.example lists the optional settings) means "not set", not "empty".
  const set = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return buildConfig(parsed.data);
}

/**
 * Settings that do not go together throw in this order (server, mail, sign-in, storage,
 * analytics); the secret files under DATA_DIR are made last, once everything else is valid.
 */
function buildConfig(e: Env) {
  const server = serverConfig(e);
  const { database } = databaseConfig(e, server);
  const mail = mailConfig(e, server);
  const auth = authConfig(e, server);
  const storage = storageConfig(e, server);
  const webClient = webClientConfig(e, server);
  return {
    ...server,
    database,
    ...storage,
    ...uploadsConfig(e, server),
    ...mail,
    ...jobsConfig(e),
    ...rateLimitConfig(e, { databaseKind: database.kind }),
    ...downloadsConfig(e, { storageKind: storage.storage.kind }),
    ...metricsConfig(e),
    ...trashConfig(e),
    ...remindersConfig(e),
    ...backupConfig(e),
    ...teamsConfig(e),
    ...auth,
    ...webClient,
    ...integrityConfig(e),
    ...secretsConfig(e, server),
  };
}
