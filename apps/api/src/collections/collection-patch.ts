import {
  deadlineInstant,
  type CollectionMode,
  type CollectionPatch,
  type DeadlineInput,
} from '@raccolta/contracts';
import { AppError } from '../errors/app-error.js';
import { applyPatch, patchField, type PatchFields } from '../http/json-patch.js';
import type { CollectionChanges } from './collections.repository.js';

export interface CollectionState {
  name: string;
  description: string | null;
  tags: string[];
  mode: CollectionMode;
  /** As a client sets it; `test` compares with this form. */
  deadline: DeadlineInput | null;
  allowLateUploads: boolean;
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
 * Applies the operations (RFC 6902, http/json-patch.ts) to the collection and returns only what
 * ends up different: a PATCH that changes nothing writes nothing and leaves updated_at, the
 * lists' order, alone. The contract has already read every value; who may rename and who may
 * switch the mode is decided by the service on the locked row.
 */
export function planCollectionPatch(
  current: CollectionState,
  ops: CollectionPatch,
): PlannedCollectionPatch {
  const taggedIds = new Set<string>();
  const fields: PatchFields<CollectionState> = {
    '/name': patchField<CollectionState, string>({
      get: (s) => s.name,
      set: (s, name) => ({ ...s, name }),
    }),
    // The schema turns a blank value into undefined: blank, null and `remove` all clear it.
    '/description': patchField<CollectionState, string | null>({
      get: (s) => s.description,
      set: (s, description) => ({ ...s, description }),
      read: (value) => (value as string | null | undefined) ?? null,
      removed: null,
    }),
    '/tags': patchField<CollectionState, string[]>({
      get: (s) => s.tags,
      set: (s, tags) => ({ ...s, tags: [...tags] }),
      read: (value) => {
        const ids = value as string[];
        for (const id of ids) taggedIds.add(id);
        return ids;
      },
    }),
    '/mode': patchField<CollectionState, CollectionMode>({
      get: (s) => s.mode,
      set: (s, mode) => ({ ...s, mode }),
    }),
    // null, or `remove`, clears it.
    '/deadline': patchField<CollectionState, DeadlineInput | null>({
      get: (s) => s.deadline,
      set: (s, deadline) => ({ ...s, deadline }),
      read: (value) => (value as DeadlineInput | null | undefined) ?? null,
      removed: null,
    }),
    '/allowLateUploads': patchField<CollectionState, boolean>({
      get: (s) => s.allowLateUploads,
      set: (s, allowLateUploads) => ({ ...s, allowLateUploads }),
    }),
  };
  const state = applyPatch(current, ops, fields);
  const changes: CollectionChanges = {};
  if (state.name !== current.name) changes.name = state.name;
  if (state.description !== current.description) changes.description = state.description;
  if (!sameTags(state.tags, current.tags)) changes.tags = state.tags;
  if (state.mode !== current.mode) changes.mode = state.mode;
  if (JSON.stringify(state.deadline) !== JSON.stringify(current.deadline)) {
    changes.deadline = state.deadline && deadlineAt(state.deadline);
  }
  if (state.allowLateUploads !== current.allowLateUploads) {
    changes.allowLateUploads = state.allowLateUploads;
  }
  const setsMode = ops.some((o) => o.path === '/mode' && o.op !== 'test');
  return { changes, taggedIds: [...taggedIds], setsMode };
}

/** The instant and zone stored for a deadline the contract has already checked. */
export function deadlineAt(input: DeadlineInput): { at: number; timeZone: string } {
  const at = deadlineInstant(input.local, input.timeZone);
  if (at === null) throw new AppError('invalidInput', { message: 'Not a valid deadline' });
  return { at, timeZone: input.timeZone };
}
