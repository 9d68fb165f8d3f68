import type { Collection } from '@raccolta/contracts';

/** Unread until opened, and again once it changed after that (a file added, a rename). */
export function isUnread(collection: Pick<Collection, 'readAt' | 'updatedAt'>): boolean {
  return (
    collection.readAt === null || Date.parse(collection.readAt) < Date.parse(collection.updatedAt)
  );
}
