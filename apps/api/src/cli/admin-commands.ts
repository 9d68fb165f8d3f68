import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LOCALES, PLANS, planSchema, type Locale } from '@raccolta/contracts';
import { backup, type BackupReport } from '../backup/backup.js';
import { restore, type RestoreReport } from '../backup/restore.js';
import type { Config } from '../config/config.js';
import type { AppContext } from '../context.js';
import { createDb } from '../db/create-db.js';
import { createStorage } from '../storage/create-storage.js';
import { enqueueTeamEncryption } from '../files/encrypt-team.job.js';
import { reencryptFiles } from '../files/reencrypt-files.js';
import {
  NewsletterIssueError,
  parseIssue,
  sendNewsletter,
  type NewsletterIssue,
} from '../subscriptions/newsletter-mail.js';
import { findTeamByRef } from '../access/access.repository.js';
import { reportText } from '../integrity/report-text.js';
import { verifyStorage } from '../integrity/verify-storage.js';
import { isUuid } from '../db/ids.js';
import { findUserByEmail, findUserById } from '../users/users.repository.js';

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [arguments]

Commands:
  grant-scope <email or user id>    let the user create teams (global scope)
  revoke-scope <email or user id>   take that away (team scope)
  show-user <email or user id>      print the account
  set-plan <team id or alias> <free|pro|premium>   set a team's plan (alias quota; premium also
                                    encrypts the files it already has, in the background)
  reencrypt-files                   after a key rotation, write the encrypted files again with
                                    STORAGE_ENCRYPTION_KEY (the earlier objects are deleted by
                                    the worker once their links have expired)
  verify-storage [--grace-hours <n>]   check every stored original against its SHA-256 and
                                    size, the renditions, and list objects no row refers to
                                    (older than the grace period, default 24 h); reports only,
                                    deletes nothing; an interrupted check goes on where it
                                    stopped (rate: VERIFY_STORAGE_MAX_MB_PER_SECOND)
  send-newsletter --en <file> [--it <file>]   mail an issue to every confirmed subscriber, in
                                    their language when given (else the first one); a file's
                                    first line is "# Subject", then paragraphs split by blank lines
  backup <dir>                      write a consistent backup of the running instance into <dir>:
                                    the database, the list of stored objects with their SHA-256,
                                    and on local disk the objects not already there (incremental)
  restore <dir> [--snapshot <name>] bring the latest backup in <dir> (or the one named) back
                                    into an empty DATA_DIR or an empty database and store`;

export class AdminCommandError extends Error {}

/**
 * `backup` and `restore`, which run on the database as it is (a restore's target is empty, a
 * backup must not migrate what it copies): answers their output, or null for any other command.
 */
export async function runStorageCommand(config: Config, args: string[]): Promise<string | null> {
  const [command, dir, ...rest] = args;
  if (command !== 'backup' && command !== 'restore') return null;
  if (!dir) throw new AdminCommandError(`${command} needs a folder.\n\n${ADMIN_USAGE}`);
  const backupDir = path.resolve(dir);
  const storage = createStorage(config, Date.now);
  if (command === 'backup') {
    if (rest.length > 0) throw new AdminCommandError(`backup takes one folder.\n\n${ADMIN_USAGE}`);
    const db = createDb(config.database);
    try {
      return describeBackup(await backup({ config, db, storage }, backupDir));
    } finally {
      await db.destroy();
    }
  }
  let snapshot: string | undefined;
  if (rest.length > 0) {
    if (rest[0] !== '--snapshot' || !rest[1] || rest.length > 2)
      throw new AdminCommandError(`restore takes <dir> [--snapshot <name>].\n\n${ADMIN_USAGE}`);
    snapshot = rest[1];
  }
  const report = await restore({ config, storage }, backupDir, snapshot);
  const text = describeRestore(report, config);
  if (report.missing.length > 0 || report.damaged.length > 0) throw new AdminCommandError(text);
  return text;
}

function describeBackup(report: BackupReport): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const lines = [
    `Backup ${report.snapshot} written to ${report.dir}`,
    `  database: ${report.database.kind}, ${mb(report.database.bytes)}`,
    report.storage === 'local'
      ? `  objects: ${report.objects} listed with their SHA-256; ${report.copied} copied this time (${mb(report.copiedBytes)}), the others were already in the backup`
      : `  objects: ${report.objects} listed with their size and SHA-256 in the manifest; their bytes stay in the bucket, whose versioning or replication must keep them (docs/operations.md)`,
  ];
  if (report.secrets.length > 0)
    lines.push(
      `  keys: ${report.secrets.join(', ')} from DATA_DIR (keep the backup as private as the instance)`,
    );
  if (report.missing.length > 0)
    lines.push(
      `  MISSING from the store, so not in the backup (${report.missing.length}): ${report.missing.join(', ')}`,
    );
  if (report.damaged.length > 0)
    lines.push(
      `  DAMAGED in the store, copied as they are (${report.damaged.length}; restore them from an earlier backup): ${report.damaged.join(', ')}`,
    );
  return lines.join('\n');
}

function describeRestore(report: RestoreReport, config: Config): string {
  const lines = [
    `Restored backup ${report.snapshot}: the database and ${report.objects - report.missing.length} of ${report.objects} objects.`,
  ];
  if (report.secrets.length > 0)
    lines.push(`  keys ${report.secrets.join(', ')} written to ${config.dataDir}`);
  else
    lines.push(
      '  The backup holds no key files: set APP_SECRET and STORAGE_ENCRYPTION_KEY as the backed-up instance had them.',
    );
  if (report.missing.length > 0)
    lines.push(
      `  MISSING (${report.missing.length})${config.storage.kind === 's3' ? ' from the bucket: bring them back from its versions or replica' : ' from the backup folder'}: ${report.missing.join(', ')}`,
    );
  if (report.damaged.length > 0)
    lines.push(
      `  DAMAGED copies in the backup (${report.damaged.length}): ${report.damaged.join(', ')}`,
    );
  lines.push('  Start Raccolta on it as usual: it migrates the database if the backup is older.');
  return lines.join('\n');
}

/** The administration commands, as plain functions of the context (`cli/admin.ts` wires argv). */
export async function runAdminCommand(ctx: AppContext, args: string[]): Promise<string> {
  const [command, target] = args;
  switch (command) {
    case 'grant-scope':
    case 'revoke-scope': {
      const user = await findTarget(ctx, target);
      const scope = command === 'grant-scope' ? 'global' : 'team';
      await ctx.db
        .updateTable('users')
        .set({ scope, updated_at: ctx.clock() })
        .where('id', '=', user.id)
        .execute();
      return `${user.email ?? user.username}: scope ${scope}`;
    }
    case 'show-user': {
      const user = await findTarget(ctx, target);
      return JSON.stringify(
        {
          userId: user.id,
          email: user.email,
          username: user.username,
          scope: user.scope,
          verified: user.email_verified === 1,
          kind: user.kind,
        },
        null,
        2,
      );
    }
    case 'set-plan': {
      const [, teamRef, plan] = args;
      const team = teamRef ? await findTeamByRef(ctx.db, teamRef) : undefined;
      if (!team) throw new AdminCommandError(`No team ${teamRef ?? ''}\n\n${ADMIN_USAGE}`);
      const parsed = planSchema.safeParse(plan);
      if (!parsed.success)
        throw new AdminCommandError(`The plan must be one of ${PLANS.join(', ')}`);
      const encrypting = parsed.data === 'premium';
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('teams')
          .set({ plan: parsed.data, updated_at: ctx.clock() })
          .where('id', '=', team.id)
          .execute();
        // The files it already has are encrypted in the background, as the new ones are.
        if (encrypting) await enqueueTeamEncryption(trx, team.id, ctx.clock);
      });
      return `${team.name}: plan ${parsed.data} (${ctx.config.teams.aliasLimits[parsed.data]} aliases${encrypting ? ', files encrypted at rest' : ''})`;
    }
    case 'reencrypt-files': {
      const outcome = await reencryptFiles(ctx);
      const lines = [
        `${outcome.rewritten} file(s) written again with the current key (id ${outcome.keyId}).`,
      ];
      if (outcome.waiting > 0)
        lines.push(
          `${outcome.waiting} file(s) wait for their thumbnails: run the command again in a minute.`,
        );
      if (outcome.unreadable.length > 0)
        lines.push(
          `${outcome.unreadable.length} file(s) were encrypted with a key that is not configured (add it to STORAGE_ENCRYPTION_PREVIOUS_KEYS): ${outcome.unreadable.join(', ')}`,
        );
      if (outcome.waiting === 0 && outcome.unreadable.length === 0)
        lines.push(
          `No file needs an earlier key any more once the links handed out before have expired (SIGNED_URL_TTL_SECONDS, ${ctx.config.signedUrlTtlSeconds} s); downloads prepared before the rotation need it until they expire (DOWNLOAD_EXPIRY_HOURS).`,
        );
      return lines.join('\n');
    }
    case 'verify-storage': {
      const orphanGraceMs = graceOption(args.slice(1));
      const report = await verifyStorage(ctx, orphanGraceMs === undefined ? {} : { orphanGraceMs });
      return reportText(report);
    }
    case 'send-newsletter': {
      const issues = await readIssues(args.slice(1));
      const sent = await sendNewsletter(ctx, issues);
      const total = sent.en + sent.it;
      return `Queued ${total} newsletter e-mail${total === 1 ? '' : 's'} (en ${sent.en}, it ${sent.it})`;
    }
    default:
      throw new AdminCommandError(
        command ? `Unknown command: ${command}\n\n${ADMIN_USAGE}` : ADMIN_USAGE,
      );
  }
}

/** `--grace-hours <n>`: the age under which an unclaimed object is not yet an orphan. */
function graceOption(args: string[]): number | undefined {
  if (args.length === 0) return undefined;
  const [flag, value] = args;
  const hours = Number(value);
  if (
    flag !== '--grace-hours' ||
    value === undefined ||
    !Number.isFinite(hours) ||
    hours < 0 ||
    args.length > 2
  )
    throw new AdminCommandError(
      `verify-storage takes only --grace-hours <hours> (a number, 0 or more)\n\n${ADMIN_USAGE}`,
    );
  return hours * 60 * 60_000;
}

async function findTarget(ctx: AppContext, target: string | undefined) {
  if (!target)
    throw new AdminCommandError(`A user is required (e-mail or user id).\n\n${ADMIN_USAGE}`);
  const user = isUuid(target)
    ? await findUserById(ctx.db, target)
    : await findUserByEmail(ctx.db, target);
  if (!user) throw new AdminCommandError(`No user ${target}`);
  return user;
}

/** `--en <file> --it <file>`: an issue per language, at least one. */
async function readIssues(args: string[]): Promise<Partial<Record<Locale, NewsletterIssue>>> {
  const issues: Partial<Record<Locale, NewsletterIssue>> = {};
  for (let i = 0; i < args.length; i += 2) {
    const locale = LOCALES.find((l) => args[i] === `--${l}`);
    const file = args[i + 1];
    if (!locale || !file || issues[locale])
      throw new AdminCommandError(
        `send-newsletter takes --en <file> and/or --it <file>\n\n${ADMIN_USAGE}`,
      );
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw new AdminCommandError(`Cannot read ${file}`);
    }
    try {
      issues[locale] = parseIssue(text);
    } catch (err) {
      if (err instanceof NewsletterIssueError)
        throw new AdminCommandError(`${file}: ${err.message}`);
      throw err;
    }
  }
  if (Object.keys(issues).length === 0)
    throw new AdminCommandError(
      `send-newsletter needs an issue: --en <file> and/or --it <file>\n\n${ADMIN_USAGE}`,
    );
  return issues;
}
