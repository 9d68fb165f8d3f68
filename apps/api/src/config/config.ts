import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_FLAGS, type AnalyticsSettings, type FeatureFlag } from '@raccolta/contracts';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/**
 * Every setting the server reads, parsed in this one place. `.env.example` documents each of them;
 * `config.test.ts` checks the two lists agree.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  API_PUBLIC_URL: z.url().optional(),
  WEB_ORIGINS: csv.optional(),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'DATABASE_URL must start with postgres:// or sqlite:')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SQLITE_DRIVER: z.enum(['auto', 'node', 'better-sqlite3']).default('auto'),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_PREFIX: z.string().default(''),
  APP_SECRET: z.string().min(32).optional(),
  STORAGE_ENCRYPTION_KEY: z
    .string()
    .refine((value) => decodeKey(value) !== null, {
      message: '32 bytes, written as 64 hexadecimal digits or in base64',
    })
    .optional(),
  STORAGE_ENCRYPTION_PREVIOUS_KEYS: z
    .string()
    .refine((value) => decodeKeyList(value) !== null, {
      message: 'keys of 32 bytes (64 hexadecimal digits or base64), separated by commas',
    })
    .optional(),
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  MAIL_TRANSPORT: z.enum(['console', 'smtp']).default('console'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Raccolta <no-reply@raccolta.local>'),
  MAIL_COPY_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  WORKER: z.enum(['inline', 'off']).default('inline'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  JOB_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  JOB_POLL_MS: z.coerce.number().int().min(10).default(1000),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Where request counts per address live; default: the database on PostgreSQL, else memory. */
  RATE_LIMIT_STORE: z.enum(['memory', 'database']).optional(),
  /** How long a stopping API process lets requests in flight finish (SIGTERM, SIGINT). */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** How long a deleted file or collection stays in the team's trash before it is purged. */
  TRASH_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** `npm run admin -- backup|restore` on PostgreSQL: its client programs, on PATH by default. */
  PG_DUMP_PATH: z.string().min(1).default('pg_dump'),
  PG_RESTORE_PATH: z.string().min(1).default('pg_restore'),
  SIGNUP_MODE: z.enum(['open', 'invitation']).default('open'),
  SIGNUP_GLOBAL_SCOPE: bool.default(true),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  VERIFICATION_CODE_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  RESET_CODE_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  SIGNIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  SIGNIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
  SIGNIN_FAILURE_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
  OAUTH_REDIRECT_URLS: csv.optional(),
  OIDC_GOOGLE_ISSUER: z.url().optional(),
  OIDC_GOOGLE_CLIENT_ID: z.string().optional(),
  OIDC_GOOGLE_CLIENT_SECRET: z.string().optional(),
  OIDC_GOOGLE_NAME: z.string().default('Google'),
  OIDC_MICROSOFT_ISSUER: z.url().optional(),
  OIDC_MICROSOFT_CLIENT_ID: z.string().optional(),
  OIDC_MICROSOFT_CLIENT_SECRET: z.string().optional(),
  OIDC_MICROSOFT_NAME: z.string().default('Microsoft'),
  OIDC_ALLOW_HTTP: bool.default(false),
  PLAN_FREE_ALIASES: z.coerce.number().int().min(0).default(1),
  PLAN_PRO_ALIASES: z.coerce.number().int().min(0).default(3),
  PLAN_PREMIUM_ALIASES: z.coerce.number().int().min(0).default(10),
  INVITATION_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** Invitations (and resends) one user may send a day, and one address may receive a day. */
  INVITATIONS_PER_INVITER_PER_DAY: z.coerce.number().int().min(1).default(50),
  INVITATIONS_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).default(5),
  UPLOAD_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 ** 3),
  UPLOAD_ALLOWED_TYPES: csv.optional(),
  UPLOAD_TEAM_MAX_BYTES: z.coerce.number().int().min(0).default(0),
  UPLOAD_EXPIRY_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  UPLOAD_LOCKS: z.enum(['memory', 'database']).default('memory'),
  DOWNLOAD_PART_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(2 * 1024 ** 3),
  DOWNLOAD_EXPIRY_HOURS: z.coerce.number().int().min(1).max(720).default(72),
  /** `nginx`: signed links of local files answer X-Accel-Redirect; nginx sends the bytes. */
  DOWNLOAD_OFFLOAD: z.enum(['off', 'nginx']).default('off'),
  DOWNLOAD_OFFLOAD_PREFIX: z
    .string()
    .regex(/^\/[\w-]+(?:\/[\w-]+)*\/$/, 'a path such as /_raccolta_files/')
    .default('/_raccolta_files/'),
  DOWNLOAD_TEAM_BUDGET_FACTOR: z.coerce.number().min(1).max(100).default(3),
  DOWNLOAD_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Hours between scheduled storage integrity checks; 0: none (`npm run admin -- verify-storage`). */
  VERIFY_STORAGE_INTERVAL_HOURS: z.coerce.number().min(0).max(8760).default(0),
  /** MiB the integrity check reads per second at most, so uploads keep the disk; 0: no bound. */
  VERIFY_STORAGE_MAX_MB_PER_SECOND: z.coerce.number().min(0).max(100_000).default(50),
  IMAGE_MAX_INPUT_PIXELS: z.coerce.number().int().min(1).default(100_000_000),
  RENDITION_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  SERVE_WEB: bool.default(true),
  WEB_DIST_DIR: z.string().optional(),
  FEATURE_FLAGS: csv.pipe(z.array(z.enum(FEATURE_FLAGS))).optional(),
  ANALYTICS_PROVIDER: z.enum(['plausible', 'matomo']).optional(),
  ANALYTICS_SCRIPT_URL: z.url({ protocol: /^https?$/ }).optional(),
  ANALYTICS_SITE_ID: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

/** How mail leaves: console (an .eml copy in `dir` and a log line) or SMTP. */
export type MailTransportConfig =
  | { transport: 'console'; dir: string; from: string }
  | { transport: 'smtp'; url: string; dir: string; from: string };

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /** Origin of the web app, used in links in e-mails. */
  publicUrl: string;
  /** Base URL of the API as browsers reach it (signed download links). */
  apiPublicUrl: string;
  webOrigins: string[];
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** auto: readable lines on a terminal, JSON lines otherwise. */
  logFormat: Env['LOG_FORMAT'];
  dataDir: string;
  database:
    | { kind: 'sqlite'; file: string; driver?: Env['SQLITE_DRIVER'] }
    | { kind: 'postgres'; url: string; poolSize: number };
  storage:
    | { kind: 'local'; root: string }
    | {
        kind: 's3';
        bucket: string;
        region: string;
        /** Unset for AWS itself; the URL of MinIO, Ceph, R2… otherwise. */
        endpoint?: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
        /** Prepended to every key, so one bucket can hold several installations. */
        prefix: string;
      };
  /** Where resumable uploads keep their bytes until the last one arrives (local storage). */
  uploadsDir: string;
  secret: string;
  /** Encrypts the premium plan's stored files (32 bytes). */
  storageEncryptionKey: Buffer;
  /** Keys objects encrypted before a rotation are read with; nothing is written with them. */
  storageEncryptionPreviousKeys: Buffer[];
  signedUrlTtlSeconds: number;
  mail: MailTransportConfig & {
    /** How long the console transport's .eml copies are kept before the daily purge. */
    copyMaxAgeMs: number;
  };
  worker: { inline: boolean; concurrency: number; leaseMs: number; pollMs: number };
  rateLimit: {
    max: number;
    windowMs: number;
    /**
     * `memory`: each process counts its own requests (one node). `database`: every process
     * counts in the `rate_limits` table, so a limit holds across the nodes behind a proxy.
     */
    store: 'memory' | 'database';
  };
  /** Milliseconds a stopping API process waits for requests in flight before cutting them. */
  shutdownGraceMs: number;
  /**
   * DOWNLOAD_OFFLOAD=nginx with local storage: a signed link, once checked, answers
   * `X-Accel-Redirect: <prefix><key>` and nginx's internal location under `prefix` sends the
   * file (sendfile, ranges). Encrypted objects are still deciphered and sent by the API. null: off.
   */
  downloadOffload: { prefix: string } | null;
  /**
   * Prometheus metrics: `GET /api/metrics` with `Authorization: Bearer <token>` when `token` is
   * set, and a listener of its own serving `GET /metrics` on `host`:`port` when `port` is set
   * (0: any free port). Neither: nothing is exposed.
   */
  metrics: { token: string | null; port: number | null; host: string };
  /** Days a deleted file or collection stays restorable (TRASH_DAYS). */
  trashDays: number;
  /** The PostgreSQL client programs backups and restores run. */
  backup: { pgDumpPath: string; pgRestorePath: string };
  web: { serve: boolean; distDir: string };
  /** Feature flags on for every browser (each may override them locally). */
  featureFlags: FeatureFlag[];
  /** Loaded by the web app only after the visitor accepts cookies; null: none. */
  analytics: AnalyticsSettings | null;
  files: {
    /** Largest file a single upload may store. */
    maxFileBytes: number;
    /** Sniffed content types an upload may have: exact (`image/png`) or a family (`image/*`). */
    allowedTypes: string[];
    /** Thumbnails are refused for images with more pixels than this (decompression bombs). */
    maxInputPixels: number;
    /** Lifetime of thumbnail and preview links. */
    renditionUrlTtlSeconds: number;
    /** Total bytes a team may store (its files plus uploads in progress); 0 = no limit. */
    teamMaxBytes: number;
    /** A resumable upload not finished within this time is abandoned and its bytes deleted. */
    uploadExpiryMs: number;
    /**
     * Where tus requests on one upload lock it against each other: in the process (`memory`), or
     * in the database (`database`), for several API processes without sticky sessions.
     */
    uploadLocks: 'memory' | 'database';
  };
  downloads: {
    /** Each zip part holds at most this many bytes (a single bigger file gets a part of its own). */
    partMaxBytes: number;
    /** Ready archives are deleted this long after they are ready. */
    expiryMs: number;
    /**
     * Archives a team's members may have prepared or being prepared at once, as a multiple of the
     * bytes the team stores (at least DOWNLOAD_TEAM_BUDGET_MIN_BYTES).
     */
    teamBudgetFactor: number;
    /** Collection downloads one member may request in an hour. */
    requestsPerHour: number;
  };
  /** The storage integrity check (integrity/verify-storage.ts). */
  integrity: {
    /** Between scheduled runs; 0: never scheduled. */
    intervalMs: number;
    /** Bytes read per second at most; 0: no bound. */
    maxBytesPerSecond: number;
  };
  teams: {
    aliasLimits: Record<'free' | 'pro' | 'premium', number>;
    invitationTtlMs: number;
    invitationLimits: { perInviterPerDay: number; perRecipientPerDay: number };
  };
  auth: {
    signupMode: 'open' | 'invitation';
    signupGlobalScope: boolean;
    accessTokenTtlSeconds: number;
    refreshTokenTtlMs: number;
    verificationCodeTtlMs: number;
    resetCodeTtlMs: number;
    signinMaxFailuresPerAccount: number;
    signinMaxFailuresPerIp: number;
    signinFailureWindowMs: number;
    oauthRedirectUrls: string[];
    providers: OidcProviderConfig[];
    allowHttpIssuers: boolean;
  };
}

export interface OidcProviderConfig {
  id: 'google' | 'microsoft';
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export class ConfigError extends Error {}

/** Parses the environment into a Config. Throws ConfigError naming every bad setting. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // `NAME=` (as .env.example lists the optional settings) means "not set", not "empty".
  const set = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.PORT === 0 && !e.PUBLIC_URL) {
    // Links in e-mails, the allowed web origin and the sign-in redirects are built from it.
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_URL: required when PORT=0 (a port chosen at start-up), since links and the allowed origin name the port',
    );
  }
  const publicUrl = stripSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const apiPublicUrl = stripSlash(e.API_PUBLIC_URL ?? `${publicUrl}/api`);
  if (e.MAIL_TRANSPORT === 'smtp' && !e.SMTP_URL) {
    throw new ConfigError('Invalid configuration:\n  SMTP_URL: required when MAIL_TRANSPORT=smtp');
  }
  const database: Config['database'] =
    e.DATABASE_URL && !e.DATABASE_URL.startsWith('sqlite:')
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : {
          kind: 'sqlite',
          file: e.DATABASE_URL
            ? path.resolve(e.DATABASE_URL.slice('sqlite:'.length))
            : path.join(dataDir, 'raccolta.db'),
          driver: e.SQLITE_DRIVER,
        };
  const mailDir = path.join(dataDir, 'mail');
  const providers: OidcProviderConfig[] = [];
  for (const [id, issuer, clientId, clientSecret, name] of [
    [
      'google',
      e.OIDC_GOOGLE_ISSUER,
      e.OIDC_GOOGLE_CLIENT_ID,
      e.OIDC_GOOGLE_CLIENT_SECRET,
      e.OIDC_GOOGLE_NAME,
    ],
    [
      'microsoft',
      e.OIDC_MICROSOFT_ISSUER,
      e.OIDC_MICROSOFT_CLIENT_ID,
      e.OIDC_MICROSOFT_CLIENT_SECRET,
      e.OIDC_MICROSOFT_NAME,
    ],
  ] as const) {
    if (!issuer) continue;
    if (!clientId || !clientSecret) {
      const prefix = `OIDC_${id.toUpperCase()}`;
      throw new ConfigError(
        `Invalid configuration:\n  ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET: required with ${prefix}_ISSUER`,
      );
    }
    providers.push({ id, name, issuer, clientId, clientSecret });
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    apiPublicUrl,
    webOrigins: e.WEB_ORIGINS ?? [new URL(publicUrl).origin],
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    dataDir,
    database,
    storage: storageConfig(e, dataDir),
    uploadsDir: path.join(dataDir, 'uploads'),
    secret: e.APP_SECRET ?? localSecret(dataDir),
    storageEncryptionKey:
      (e.STORAGE_ENCRYPTION_KEY === undefined ? null : decodeKey(e.STORAGE_ENCRYPTION_KEY)) ??
      localStorageKey(dataDir),
    storageEncryptionPreviousKeys: decodeKeyList(e.STORAGE_ENCRYPTION_PREVIOUS_KEYS ?? '') ?? [],
    signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS,
    mail: {
      ...(e.MAIL_TRANSPORT === 'smtp'
        ? { transport: 'smtp', url: e.SMTP_URL ?? '', dir: mailDir, from: e.MAIL_FROM }
        : { transport: 'console', dir: mailDir, from: e.MAIL_FROM }),
      copyMaxAgeMs: e.MAIL_COPY_DAYS * 24 * 60 * 60_000,
    },
    worker: {
      inline: e.WORKER === 'inline',
      concurrency: e.WORKER_CONCURRENCY,
      leaseMs: e.JOB_LEASE_MS,
      pollMs: e.JOB_POLL_MS,
    },
    rateLimit: {
      max: e.RATE_LIMIT_MAX,
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      store: e.RATE_LIMIT_STORE ?? (database.kind === 'postgres' ? 'database' : 'memory'),
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    downloadOffload:
      e.DOWNLOAD_OFFLOAD === 'nginx' && e.STORAGE === 'local'
        ? { prefix: e.DOWNLOAD_OFFLOAD_PREFIX }
        : null,
    metrics: {
      token: e.METRICS_TOKEN ?? null,
      port: e.METRICS_PORT ?? null,
      host: e.METRICS_HOST,
    },
    trashDays: e.TRASH_DAYS,
    backup: { pgDumpPath: e.PG_DUMP_PATH, pgRestorePath: e.PG_RESTORE_PATH },
    files: {
      maxFileBytes: e.UPLOAD_MAX_FILE_BYTES,
      allowedTypes: e.UPLOAD_ALLOWED_TYPES ?? ['*/*'],
      maxInputPixels: e.IMAGE_MAX_INPUT_PIXELS,
      renditionUrlTtlSeconds: e.RENDITION_URL_TTL_SECONDS,
      teamMaxBytes: e.UPLOAD_TEAM_MAX_BYTES,
      uploadExpiryMs: e.UPLOAD_EXPIRY_HOURS * 60 * 60_000,
      uploadLocks: e.UPLOAD_LOCKS,
    },
    downloads: {
      partMaxBytes: e.DOWNLOAD_PART_MAX_BYTES,
      expiryMs: e.DOWNLOAD_EXPIRY_HOURS * 60 * 60_000,
      teamBudgetFactor: e.DOWNLOAD_TEAM_BUDGET_FACTOR,
      requestsPerHour: e.DOWNLOAD_REQUESTS_PER_HOUR,
    },
    integrity: {
      intervalMs: Math.round(e.VERIFY_STORAGE_INTERVAL_HOURS * 60 * 60_000),
      maxBytesPerSecond: Math.round(e.VERIFY_STORAGE_MAX_MB_PER_SECOND * 1024 * 1024),
    },
    teams: {
      aliasLimits: {
        free: e.PLAN_FREE_ALIASES,
        pro: e.PLAN_PRO_ALIASES,
        premium: e.PLAN_PREMIUM_ALIASES,
      },
      invitationTtlMs: e.INVITATION_TTL_DAYS * 24 * 60 * 60_000,
      invitationLimits: {
        perInviterPerDay: e.INVITATIONS_PER_INVITER_PER_DAY,
        perRecipientPerDay: e.INVITATIONS_PER_RECIPIENT_PER_DAY,
      },
    },
    auth: {
      signupMode: e.SIGNUP_MODE,
      signupGlobalScope: e.SIGNUP_GLOBAL_SCOPE,
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlMs: e.REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60_000,
      verificationCodeTtlMs: e.VERIFICATION_CODE_TTL_HOURS * 60 * 60_000,
      resetCodeTtlMs: e.RESET_CODE_TTL_MINUTES * 60_000,
      signinMaxFailuresPerAccount: e.SIGNIN_MAX_FAILURES_PER_ACCOUNT,
      signinMaxFailuresPerIp: e.SIGNIN_MAX_FAILURES_PER_IP,
      signinFailureWindowMs: e.SIGNIN_FAILURE_WINDOW_MS,
      oauthRedirectUrls: e.OAUTH_REDIRECT_URLS ?? [`${publicUrl}/auth/callback`],
      providers,
      allowHttpIssuers: e.OIDC_ALLOW_HTTP,
    },
    featureFlags: [...new Set(e.FEATURE_FLAGS ?? [])],
    analytics: analyticsConfig(e, publicUrl),
    web: {
      serve: e.SERVE_WEB,
      distDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../../web/dist')),
    },
  };
}

function storageConfig(e: Env, dataDir: string): Config['storage'] {
  if (e.STORAGE === 'local') return { kind: 'local', root: path.join(dataDir, 'files') };
  if (!e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE=s3');
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither',
    );
  }
  const prefix = e.S3_PREFIX.replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
    ...(e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID } : {}),
    ...(e.S3_SECRET_ACCESS_KEY ? { secretAccessKey: e.S3_SECRET_ACCESS_KEY } : {}),
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: prefix ? `${prefix}/` : '',
  };
}

function analyticsConfig(e: Env, publicUrl: string): AnalyticsSettings | null {
  if (!e.ANALYTICS_PROVIDER) return null;
  const scriptUrl = e.ANALYTICS_SCRIPT_URL;
  if (!scriptUrl) {
    throw new ConfigError(
      'Invalid configuration:\n  ANALYTICS_SCRIPT_URL: required with ANALYTICS_PROVIDER',
    );
  }
  if (e.ANALYTICS_PROVIDER === 'plausible') {
    return {
      provider: 'plausible',
      scriptUrl,
      domain: e.ANALYTICS_SITE_ID ?? new URL(publicUrl).host,
    };
  }
  if (!e.ANALYTICS_SITE_ID) {
    throw new ConfigError(
      'Invalid configuration:\n  ANALYTICS_SITE_ID: required with ANALYTICS_PROVIDER=matomo',
    );
  }
  // Matomo serves its tracker endpoint beside its script (…/matomo.js → …/matomo.php).
  return {
    provider: 'matomo',
    scriptUrl,
    trackerUrl: new URL('matomo.php', scriptUrl).href,
    siteId: e.ANALYTICS_SITE_ID,
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A 32-byte key written as 64 hex digits or in base64 (standard or URL-safe); null otherwise. */
function decodeKey(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** Keys separated by commas (blanks around them ignored, empty entries skipped); null if one is bad. */
function decodeKeyList(value: string): Buffer[] | null {
  const keys: Buffer[] = [];
  for (const part of value.split(',')) {
    if (part.trim() === '') continue;
    const key = decodeKey(part);
    if (!key) return null;
    keys.push(key);
  }
  return keys;
}

/**
 * Like the secret: on the embedded defaults the storage encryption key is made once and kept
 * under DATA_DIR (losing it loses the premium teams' files). Several API processes, or storage
 * that outlives this folder (S3), need STORAGE_ENCRYPTION_KEY instead.
 */
function localStorageKey(dataDir: string): Buffer {
  const file = path.join(dataDir, '.storage-key');
  let text: string | null = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    // Never replaced: a new key would make every file encrypted with the old one unreadable.
    const existing = decodeKey(text);
    if (existing) return existing;
    throw new ConfigError(`Invalid configuration:\n  ${file} does not hold a 32-byte key`);
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // Written whole beside it, then linked into place: the name never shows a half-written key,
  // and a link never replaces a key another process starting on this DATA_DIR made first.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, key.toString('base64url'), { mode: 0o600 });
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return localStorageKey(dataDir);
  } finally {
    rmSync(temp, { force: true });
  }
  return key;
}

/**
 * On the embedded defaults a secret is made once and kept under DATA_DIR, so signed links and
 * sessions survive a restart. Several API processes must share APP_SECRET instead.
 */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, '.secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not made yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
