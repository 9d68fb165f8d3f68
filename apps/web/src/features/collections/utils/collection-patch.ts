import type { Collection, CollectionMode } from '@raccolta/contracts';

/** What the edit dialog lets a member change, as its schema leaves it (trimmed; blank = absent). */
export interface CollectionChanges {
  name: string;
  description: string | undefined;
  /** User ids, in the order chosen. */
  tags: string[];
  /** Shared or private; absent when the editor may not switch it. */
  mode?: CollectionMode | undefined;
}

export type CollectionPatchOperation =
  | { op: 'replace'; path: '/name'; value: string }
  | { op: 'add' | 'replace'; path: '/description'; value: string }
  | { op: 'remove'; path: '/description' }
  | { op: 'replace'; path: '/tags'; value: string[] }
  | { op: 'replace'; path: '/mode'; value: CollectionMode };

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * The RFC 6902 list of an edit: one operation for each field that differs from the collection as
 * loaded, so a change made meanwhile by someone else to another field is not overwritten. An
 * empty list means nothing changed.
 */
export function collectionPatch(
  original: Pick<Collection, 'name' | 'description' | 'tags' | 'mode'>,
  changes: CollectionChanges,
): CollectionPatchOperation[] {
  const operations: CollectionPatchOperation[] = [];
  if (changes.name !== original.name) {
    operations.push({ op: 'replace', path: '/name', value: changes.name });
  }
  const description = changes.description ?? null;
  if (description !== original.description) {
    if (description === null) operations.push({ op: 'remove', path: '/description' });
    else {
      const op = original.description === null ? 'add' : 'replace';
      operations.push({ op, path: '/description', value: description });
    }
  }
  if (!sameIds(changes.tags, original.tags)) {
    operations.push({ op: 'replace', path: '/tags', value: changes.tags });
  }
  if (changes.mode !== undefined && changes.mode !== original.mode) {
    operations.push({ op: 'replace', path: '/mode', value: changes.mode });
  }
  return operations;
}
