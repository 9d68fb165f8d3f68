import { localDeadline, uploadTiming, type Deadline } from '@raccolta/contracts';
import type { CollectionRow } from '../db/rows.js';
import { AppError } from '../errors/app-error.js';

/** A collection's deadline rules (contracts' deadlines.ts) over its row. */

export function uploadTimingOf(
  collection: Pick<CollectionRow, 'deadline_at' | 'allow_late_uploads'>,
  now: number,
): 'onTime' | 'late' | 'closed' {
  return uploadTiming(
    { deadlineAt: collection.deadline_at, allowLateUploads: collection.allow_late_uploads === 1 },
    now,
  );
}

export function collectionClosed(): AppError {
  return new AppError('collectionClosed', {
    message: 'The deadline of this collection has passed and it accepts no more files',
  });
}

/** The deadline as the API shows it; null without one. */
export function presentDeadline(
  row: Pick<CollectionRow, 'deadline_at' | 'deadline_zone'>,
): Deadline | null {
  if (row.deadline_at === null || row.deadline_zone === null) return null;
  return {
    at: new Date(row.deadline_at).toISOString(),
    local: localDeadline(row.deadline_at, row.deadline_zone),
    timeZone: row.deadline_zone,
  };
}
