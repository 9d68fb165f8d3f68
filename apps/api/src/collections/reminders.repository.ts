import { canCreateFile } from '@raccolta/contracts';
import type { Db } from '../db/create-db.js';
import type { CollectionRow } from '../db/rows.js';

/** The queries of deadline reminders (issue #36); the rules are in reminders.service.ts. */

/** A collection with a deadline, with its team's name for the e-mail. */
export type ReminderCollection = Pick<
  CollectionRow,
  'id' | 'team_id' | 'name' | 'mode' | 'created_by' | 'deadline_at' | 'deadline_zone'
> & { team_name: string };

export interface ReminderRecipient {
  userId: string;
  email: string;
  locale: 'en' | 'it';
  name: string | undefined;
}

const COLLECTION_COLUMNS = [
  'c.id',
  'c.team_id',
  'c.name',
  'c.mode',
  'c.created_by',
  'c.deadline_at',
  'c.deadline_zone',
  't.name as team_name',
] as const;

/** Collections whose deadline falls in (now, now + withinMs]. */
export function collectionsWithDeadlineWithin(
  db: Db,
  now: number,
  withinMs: number,
): Promise<ReminderCollection[]> {
  return db
    .selectFrom('collections as c')
    .innerJoin('teams as t', 't.id', 'c.team_id')
    .select(COLLECTION_COLUMNS)
    .where('c.deadline_at', '>', now)
    .where('c.deadline_at', '<=', now + withinMs)
    .orderBy('c.deadline_at')
    .execute();
}

export function reminderCollection(
  db: Db,
  collectionId: string,
): Promise<ReminderCollection | undefined> {
  return db
    .selectFrom('collections as c')
    .innerJoin('teams as t', 't.id', 'c.team_id')
    .select(COLLECTION_COLUMNS)
    .where('c.id', '=', collectionId)
    .executeTakeFirst();
}

/**
 * The people a reminder goes to: active members who may upload to the collection (spec §6, the
 * contracts' canCreateFile), have an e-mail address (internal contributors have none) and have
 * no file in it yet.
 */
export async function reminderRecipients(
  db: Db,
  collection: ReminderCollection,
): Promise<ReminderRecipient[]> {
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.role', 'm.nickname', 'u.email', 'u.locale'])
    .where('m.team_id', '=', collection.team_id)
    .where('m.status', '=', 'active')
    .where('m.type', '!=', 'internal')
    .where('u.email', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('files as f')
            .select('f.id')
            .where('f.collection_id', '=', collection.id)
            .whereRef('f.uploaded_by', '=', 'm.user_id'),
        ),
      ),
    )
    .orderBy('m.user_id')
    .execute();
  return rows
    .filter((r) =>
      canCreateFile({
        role: r.role,
        actorUserId: r.user_id,
        collection: { createdBy: collection.created_by, mode: collection.mode },
      }),
    )
    .map((r) => ({
      userId: r.user_id,
      email: r.email ?? '',
      locale: r.locale === 'it' ? ('it' as const) : ('en' as const),
      name: r.nickname ?? undefined,
    }));
}

/**
 * Records the reminders due for one member: the first of `days` `pending`, the others `skipped`
 * (superseded by it). A row that exists already is left as it is (the unique key). Resolves to
 * whether the pending one was new.
 */
export async function recordReminders(
  db: Db,
  input: { collectionId: string; userId: string; days: readonly number[]; now: number },
): Promise<void> {
  const [first, ...rest] = input.days;
  if (first === undefined) return;
  await db
    .insertInto('collection_reminders')
    .values(
      [
        { days: first, status: 'pending' as const },
        ...rest.map((days) => ({ days, status: 'skipped' as const })),
      ].map((r) => ({
        collection_id: input.collectionId,
        user_id: input.userId,
        days_before: r.days,
        status: r.status,
        created_at: input.now,
        queued_at: null,
      })),
    )
    .onConflict((oc) => oc.columns(['collection_id', 'user_id', 'days_before']).doNothing())
    .execute();
}

export function pendingReminders(db: Db, limit: number) {
  return db
    .selectFrom('collection_reminders')
    .select(['collection_id', 'user_id', 'days_before'])
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/**
 * Moves one reminder from `pending` to `status`; false when it was not pending any more (another
 * run took it: on PostgreSQL the second waits on the first's row lock, then updates nothing).
 */
export async function settleReminder(
  trx: Db,
  key: { collection_id: string; user_id: string; days_before: number },
  status: 'queued' | 'skipped',
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('collection_reminders')
    .set({ status, queued_at: status === 'queued' ? now : null })
    .where('collection_id', '=', key.collection_id)
    .where('user_id', '=', key.user_id)
    .where('days_before', '=', key.days_before)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
