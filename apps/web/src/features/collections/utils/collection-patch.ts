import type { Collection, CollectionMode, DeadlineInput } from '@raccolta/contracts';

/** What the edit dialog lets a member change, as its schema leaves it (trimmed; blank = absent). */
export interface CollectionChanges {
  name: string;
  description: string | undefined;
  /** User ids, in the order chosen. */
  tags: string[];
  /** Shared or private; absent when the editor may not switch it. */
  mode?: CollectionMode | undefined;
  /** The deadline field: local "" for none (issue #36); absent or null when not edited. */
  deadline?: { local: string; timeZone: string; allowLateUploads: boolean } | null | undefined;
}

export type CollectionPatchOperation =
  | { op: 'replace'; path: '/name'; value: string }
  | { op: 'add' | 'replace'; path: '/description'; value: string }
  | { op: 'remove'; path: '/description' }
  | { op: 'replace'; path: '/tags'; value: string[] }
  | { op: 'replace'; path: '/mode'; value: CollectionMode }
  | { op: 'replace'; path: '/deadline'; value: DeadlineInput | null }
  | { op: 'replace'; path: '/allowLateUploads'; value: boolean };

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * The RFC 6902 list of an edit: one operation for each field that differs from the collection as
 * loaded, so a change made meanwhile by someone else to another field is not overwritten. An
 * empty list means nothing changed.
 */
export function collectionPatch(
  original: Pick<
    Collection,
    'name' | 'description' | 'tags' | 'mode' | 'deadline' | 'allowLateUploads'
  >,
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
  if (changes.deadline) {
    const { local, timeZone, allowLateUploads } = changes.deadline;
    const was = original.deadline;
    if (local === '') {
      if (was !== null) operations.push({ op: 'replace', path: '/deadline', value: null });
    } else if (was?.local !== local || was.timeZone !== timeZone) {
      operations.push({ op: 'replace', path: '/deadline', value: { local, timeZone } });
    }
    const late = local !== '' && allowLateUploads;
    if (late !== original.allowLateUploads) {
      operations.push({ op: 'replace', path: '/allowLateUploads', value: late });
    }
  }
  return operations;
}
