import { collectionPatchSchema } from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { planCollectionPatch, type CollectionState } from './collection-patch.js';

const A = '01900000-0000-7000-8000-00000000000a';
const B = '01900000-0000-7000-8000-00000000000b';
const C = '01900000-0000-7000-8000-00000000000c';
const current: CollectionState = {
  name: 'Trip',
  description: 'Photos',
  tags: [A, B],
  mode: 'owned',
  deadline: { local: '2026-12-01T18:00', timeZone: 'Europe/Rome' },
  allowLateUploads: false,
};
const plan = (ops: unknown) => planCollectionPatch(current, collectionPatchSchema.parse(ops));

describe('planCollectionPatch', () => {
  it('stores a deadline as its instant and zone, and clears it', () => {
    const rome = { local: '2026-12-01T18:00', timeZone: 'Europe/Rome' };
    // The same deadline is no change; `test` compares with the form a client sets.
    expect(
      plan([
        { op: 'test', path: '/deadline', value: rome },
        { op: 'replace', path: '/deadline', value: rome },
      ]).changes,
    ).toEqual({});
    expect(
      plan([{ op: 'replace', path: '/deadline', value: { ...rome, timeZone: 'UTC' } }]).changes,
    ).toEqual({ deadline: { at: Date.UTC(2026, 11, 1, 18), timeZone: 'UTC' } });
    expect(plan([{ op: 'remove', path: '/deadline' }]).changes).toEqual({ deadline: null });
    expect(plan([{ op: 'replace', path: '/deadline', value: null }]).changes).toEqual({
      deadline: null,
    });
    expect(plan([{ op: 'replace', path: '/allowLateUploads', value: true }]).changes).toEqual({
      allowLateUploads: true,
    });
    expect(() => plan([{ op: 'test', path: '/deadline', value: null }])).toThrow(AppError);
  });

  it('returns only what ends up different', () => {
    expect(
      plan([
        { op: 'replace', path: '/name', value: 'Other' },
        { op: 'replace', path: '/name', value: 'Trip' },
        { op: 'replace', path: '/tags', value: [A, B] },
      ]),
    ).toEqual({ changes: {}, taggedIds: [A, B], setsMode: false });
    // Tags keep the order they were set in: the same ids in another order are a change.
    expect(plan([{ op: 'replace', path: '/tags', value: [B, A] }]).changes).toEqual({
      tags: [B, A],
    });
    expect(
      plan([
        { op: 'replace', path: '/name', value: 'Journey' },
        { op: 'remove', path: '/description' },
        { op: 'replace', path: '/tags', value: [C] },
      ]),
    ).toEqual({
      changes: { name: 'Journey', description: null, tags: [C] },
      taggedIds: [C],
      setsMode: false,
    });
  });

  it('switches the mode, and says a replace of /mode was asked even when it changes nothing', () => {
    expect(plan([{ op: 'replace', path: '/mode', value: 'collaborative' }])).toEqual({
      changes: { mode: 'collaborative' },
      taggedIds: [],
      setsMode: true,
    });
    expect(plan([{ op: 'replace', path: '/mode', value: 'owned' }])).toEqual({
      changes: {},
      taggedIds: [],
      setsMode: true,
    });
    expect(plan([{ op: 'test', path: '/mode', value: 'owned' }]).setsMode).toBe(false);
    expect(() => plan([{ op: 'test', path: '/mode', value: 'collaborative' }])).toThrow(AppError);
    expect(() => plan([{ op: 'replace', path: '/mode', value: 'public' }])).toThrow();
  });

  it('clears the description with a blank value, and sets it with add', () => {
    expect(plan([{ op: 'replace', path: '/description', value: '  ' }]).changes).toEqual({
      description: null,
    });
    expect(plan([{ op: 'add', path: '/description', value: 'New' }]).changes).toEqual({
      description: 'New',
    });
  });

  it('tests against the state the earlier operations left, tags in their order', () => {
    expect(
      plan([
        { op: 'test', path: '/tags', value: [A, B] },
        { op: 'replace', path: '/name', value: 'Later' },
        { op: 'test', path: '/name', value: 'Later' },
        { op: 'remove', path: '/description' },
        { op: 'test', path: '/description', value: '' },
      ]).changes,
    ).toEqual({ name: 'Later', description: null });
  });

  it.each([
    [{ op: 'test', path: '/name', value: 'Nope' }],
    [{ op: 'test', path: '/description' }],
    [{ op: 'test', path: '/tags', value: [A] }],
    [{ op: 'test', path: '/tags', value: [A, C] }],
    [{ op: 'test', path: '/tags', value: [B, A] }],
  ])('refuses a failed test with invalidInput: %o', (failing) => {
    expect(() => plan([{ op: 'replace', path: '/name', value: 'Changed' }, failing])).toThrow(
      expect.objectContaining({ errorCode: 'invalidInput' }) as AppError,
    );
  });
});
