import { dueReminderOffsets, REMIND_NOW_WINDOW_MS, type RemindResponse } from '@raccolta/contracts';
import { requireAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import { webLink } from '../auth/links.js';
import { reserve } from '../db/rate-limits.js';
import type { Config } from '../config/config.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import type { Clock } from '../jobs/types.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import type { UserRow } from '../users/users.repository.js';
import { collectionClosed, uploadTimingOf } from './deadlines.js';
import {
  collectionsWithDeadlineWithin,
  pendingReminders,
  recordReminders,
  reminderCollection,
  reminderRecipients,
  settleReminder,
  type ReminderCollection,
  type ReminderRecipient,
} from './reminders.repository.js';

/**
 * Reminder e-mails before a collection's deadline (issue #36). Each (collection, member, days
 * before) goes once, even if the worker dies mid-run: it is recorded `pending` first, then
 * turned `queued` in the same transaction that enqueues its mail (the crash-safe `mail.send`
 * job); a run that died in between leaves it `pending` and the next run queues it.
 */

const DAY_MS = 24 * 60 * 60_000;
/** Pending reminders queued per run; the rest wait for the next one. */
const BATCH = 500;

export interface ReminderDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'reminderDays' | 'publicUrl'>;
}

/** Step 1: records every reminder due now and not yet recorded, `pending`. */
export async function recordDueReminders(deps: ReminderDeps): Promise<void> {
  const now = deps.clock();
  const maxDays = Math.max(...deps.config.reminderDays);
  const collections = await collectionsWithDeadlineWithin(deps.db, now, maxDays * DAY_MS);
  for (const collection of collections) {
    if (collection.deadline_at === null) continue;
    const days = dueReminderOffsets(collection.deadline_at, deps.config.reminderDays, now);
    if (days.length === 0) continue;
    for (const recipient of await reminderRecipients(deps.db, collection)) {
      await recordReminders(deps.db, {
        collectionId: collection.id,
        userId: recipient.userId,
        days,
        now,
      });
    }
  }
}

function reminderMail(
  config: ReminderDeps['config'],
  collection: ReminderCollection,
  to: ReminderRecipient,
) {
  return {
    to: to.email,
    locale: to.locale,
    template: 'collectionReminder' as const,
    vars: {
      collectionName: collection.name,
      teamName: collection.team_name,
      link: webLink(
        config as Config,
        `/upload/teams/${collection.team_id}/collections/${collection.id}`,
        {},
      ),
      name: to.name,
      deadlineAt: collection.deadline_at ?? 0,
      timeZone: collection.deadline_zone ?? 'UTC',
    },
  };
}

/**
 * Step 2: each pending reminder becomes a queued mail, in one transaction, if its member still
 * has nothing in the collection and the deadline is still ahead; else it is skipped.
 */
export async function queuePendingReminders(deps: ReminderDeps): Promise<void> {
  const now = deps.clock();
  for (const key of await pendingReminders(deps.db, BATCH)) {
    await deps.db.transaction().execute(async (trx) => {
      const collection = await reminderCollection(trx, key.collection_id);
      const recipient =
        collection && collection.deadline_at !== null && collection.deadline_at > now
          ? (await reminderRecipients(trx, collection)).find((r) => r.userId === key.user_id)
          : undefined;
      if (!collection || !recipient) {
        await settleReminder(trx, key, 'skipped', now);
        return;
      }
      if (!(await settleReminder(trx, key, 'queued', now))) return;
      await enqueueMail(trx, reminderMail(deps.config, collection, recipient), deps.clock, {
        dedupeKey: `reminder:${key.collection_id}:${key.user_id}:${key.days_before}`,
      });
    });
  }
}

/** The scheduled job's run: record what is due, then queue it. */
export async function sendDueReminders(deps: ReminderDeps): Promise<void> {
  await recordDueReminders(deps);
  await queuePendingReminders(deps);
}

/**
 * POST …/collections/{collectionId}/reminders (owner, admin): the same people as the scheduled
 * reminders, now. Once per collection per REMIND_NOW_WINDOW_MS (tooManyRequests); when nobody
 * needs a reminder it answers `sent: 0` and the window is not used. A collection
 * without a deadline has nothing to remind of (invalidRequest); a closed one takes no files
 * (collectionClosed).
 */
export async function remindNow(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<RemindResponse> {
  const { collection: row } = await requireAccess(
    ctx,
    user,
    { team: teamRef, collection: collectionId },
    can.sendReminder,
  );
  const now = ctx.clock();
  if (row.deadline_at === null) {
    throw new AppError('invalidRequest', { message: 'The collection has no deadline' });
  }
  if (uploadTimingOf(row, now) === 'closed') throw collectionClosed();
  const collection = await reminderCollection(ctx.db, row.id);
  if (!collection) throw new AppError('notFound');
  const recipients = await reminderRecipients(ctx.db, collection);
  // Nobody to remind: nothing is sent, and the hour is not used up.
  if (recipients.length === 0) return { sent: 0 };
  if (!(await reserve(ctx.db, `remind:${row.id}`, 1, REMIND_NOW_WINDOW_MS, now))) {
    throw new AppError('tooManyRequests', {
      message: 'A reminder for this collection was sent recently',
    });
  }
  await ctx.db.transaction().execute(async (trx) => {
    for (const to of recipients) {
      await enqueueMail(trx, reminderMail(ctx.config, collection, to), ctx.clock);
    }
  });
  return { sent: recipients.length };
}
