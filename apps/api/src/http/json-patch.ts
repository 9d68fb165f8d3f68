import { AppError } from '../errors/app-error.js';

/**
 * RFC 6902 as the team, member and collection PATCH use it: the operations apply in order to the
 * object as the earlier ones leave it, each checked before any is written; the first refusal
 * refuses the whole list and nothing changes. `test` compares with the value as it stands then.
 * What may be patched is declared per path: how a value is read, how `remove` clears it, and the
 * §6 rule (from contracts) deciding whether the caller may change it.
 */

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove' | 'test';
  path: string;
  value?: unknown;
}

export interface PatchField<S, V = unknown> {
  /** The field's value in the state, as `test` compares it. */
  get(state: S): V;
  /** The state with the new value of an `add` or `replace`. */
  set(state: S, value: V): S;
  /** Reads an operation's value (parse, validate), or throws the AppError that says why. */
  read?(value: unknown, index: number, state: S): V;
  /** The value `remove` sets; without it, `remove` is refused. */
  removed?: V;
  /** Whether the caller may set this value on the object as it stands (spec §6). */
  allowed?(state: S, value: V): boolean;
}

export type PatchFields<S> = Record<string, PatchField<S>>;

/** A field whose values are of type V, among the fields of a state S. */
export function patchField<S, V>(field: PatchField<S, V>): PatchField<S> {
  return field;
}

export interface PatchRefusals {
  /** A path no field answers to, or `remove` of a field that cannot be removed. */
  invalid: (index: number, reason: string) => AppError;
  /** A rule refused the change. */
  forbidden: (index: number, path: string) => AppError;
}

/** The member and collection PATCH: a refused rule is 403, a bad operation 400 invalidInput. */
export const defaultRefusals: PatchRefusals = {
  invalid: (index, reason) =>
    new AppError('invalidInput', { message: `Operation ${index}: ${reason}` }),
  forbidden: () => new AppError('forbidden'),
};

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The state after every operation, or the refusal of the first one that may not apply. */
export function applyPatch<S>(
  initial: S,
  ops: readonly PatchOperation[],
  fields: PatchFields<S>,
  refusals: PatchRefusals = defaultRefusals,
): S {
  let state = initial;
  ops.forEach((op, index) => {
    const field = Object.hasOwn(fields, op.path) ? (fields[op.path] as PatchField<S>) : undefined;
    if (!field) throw refusals.invalid(index, `path ${op.path} cannot be changed`);
    if (op.op === 'test') {
      if (!same(field.get(state), op.value))
        throw refusals.invalid(index, `test failed at ${op.path}`);
      return;
    }
    let value: unknown;
    if (op.op === 'remove') {
      if (!('removed' in field)) throw refusals.invalid(index, `${op.path} cannot be removed`);
      value = field.removed;
    } else {
      if (!('value' in op)) throw refusals.invalid(index, 'value is required');
      value = field.read ? field.read(op.value, index, state) : op.value;
    }
    if (field.allowed && !field.allowed(state, value)) throw refusals.forbidden(index, op.path);
    state = field.set(state, value);
  });
  return state;
}
