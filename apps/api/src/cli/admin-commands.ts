import { readFile } from 'node:fs/promises';
import { LOCALES, PLANS, planSchema, type Locale } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import { enqueueTeamEncryption } from '../files/encrypt-team.job.js';
import { reencryptFiles } from '../files/reencrypt-files.js';
import {
  NewsletterIssueError,
  parseIssue,
  sendNewsletter,
  type NewsletterIssue,
} from '../subscriptions/newsletter-mail.js';
import { findTeamByRef } from '../teams/team-access.js';
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
                                    first line is "# Subject", then paragraphs split by blank lines`;

export class AdminCommandError extends Error {}

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
