import { uploadTiming, type Collection } from '@raccolta/contracts';

/**
 * Whether "Send reminder now" has something to remind of: a deadline, and files still accepted
 * (the API answers invalidRequest or collectionClosed otherwise).
 */
export function mayRemind(
  collection: Pick<Collection, 'deadline' | 'allowLateUploads'>,
  now: number,
): boolean {
  if (!collection.deadline) return false;
  const deadlineAt = Date.parse(collection.deadline.at);
  return (
    uploadTiming({ deadlineAt, allowLateUploads: collection.allowLateUploads }, now) !== 'closed'
  );
}
