import type { CollectionMode, CollectionPatch } from '@raccolta/contracts';
import { AppError } from '../errors/app-error.js';
import type { CollectionChanges } from './collections.repository.js';

export interface CollectionState {
  name: string;
  description: string | null;
  tags: string[];
  mode: CollectionMode;
}

export interface PlannedCollectionPatch {
  changes: CollectionChanges;
  /** Every user id a `replace` of /tags names: each must be an active member of the team. */
  taggedIds: string[];
  /** Whether a `replace` of /mode is in the list, even one that changes nothing. */
  setsMode: boolean;
}

/** Tags keep the order they were set in, so a new order is a change. */
function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/**
 * Applies the operations in order to the collection as the earlier ones leave it (RFC 6902), a
 * failed `test` refusing the whole list like the team and member PATCH (400 invalidInput), and
 * returns only what ends up different: a PATCH that changes nothing writes nothing and leaves
 * updated_at, the lists' order, alone.
 */
export function planCollectionPatch(
  current: CollectionState,
  ops: CollectionPatch,
): PlannedCollectionPatch {
  const state: CollectionState = { ...current, tags: [...current.tags] };
  const taggedIds = new Set<string>();
  let setsMode = false;
  for (const o of ops) {
    switch (o.path) {
      case '/name':
        if (o.op === 'test') {
          if (state.name !== o.value) throw testFailed(o.path);
        } else state.name = o.value;
        break;
      case '/description': {
        // The schema turns a blank value into undefined: blank, null and `remove` all clear it.
        const value = o.op === 'remove' ? null : (o.value ?? null);
        if (o.op === 'test') {
          if (state.description !== value) throw testFailed(o.path);
        } else state.description = value;
        break;
      }
      case '/tags':
        if (o.op === 'test') {
          if (!sameTags(state.tags, o.value)) throw testFailed(o.path);
        } else {
          state.tags = [...o.value];
          for (const id of o.value) taggedIds.add(id);
        }
        break;
      case '/mode':
        if (o.op === 'test') {
          if (state.mode !== o.value) throw testFailed(o.path);
        } else {
          state.mode = o.value;
          setsMode = true;
        }
        break;
    }
  }
  const changes: CollectionChanges = {};
  if (state.name !== current.name) changes.name = state.name;
  if (state.description !== current.description) changes.description = state.description;
  if (!sameTags(state.tags, current.tags)) changes.tags = state.tags;
  if (state.mode !== current.mode) changes.mode = state.mode;
  return { changes, taggedIds: [...taggedIds], setsMode };
}

function testFailed(path: string): AppError {
  return new AppError('invalidInput', { message: `test failed at ${path}` });
}
