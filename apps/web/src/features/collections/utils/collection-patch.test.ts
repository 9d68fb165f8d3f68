import { describe, expect, it } from 'vitest';
import { collectionPatch } from './collection-patch';
import { isUnread } from './unread';

const BEA = '0195f0c2-7c1a-7000-8000-000000000201';
const CARLO = '0195f0c2-7c1a-7000-8000-000000000202';
const ORIGINAL = {
  name: 'Rehearsals',
  description: 'Spring term',
  tags: [BEA],
  mode: 'owned' as const,
  deadline: null,
  allowLateUploads: false,
};

describe('collection patch', () => {
  it('is empty when nothing changed', () => {
    expect(collectionPatch(ORIGINAL, { ...ORIGINAL })).toEqual([]);
  });

  it('replaces only the changed fields, in order', () => {
    expect(
      collectionPatch(ORIGINAL, { name: 'Concerts', description: 'Spring term', tags: [BEA] }),
    ).toEqual([{ op: 'replace', path: '/name', value: 'Concerts' }]);
    expect(
      collectionPatch(ORIGINAL, { name: 'Concerts', description: 'Summer', tags: [CARLO, BEA] }),
    ).toEqual([
      { op: 'replace', path: '/name', value: 'Concerts' },
      { op: 'replace', path: '/description', value: 'Summer' },
      { op: 'replace', path: '/tags', value: [CARLO, BEA] },
    ]);
  });

  it('adds a first description and removes a cleared one', () => {
    expect(
      collectionPatch({ ...ORIGINAL, description: null }, { ...ORIGINAL, description: 'New' }),
    ).toEqual([{ op: 'add', path: '/description', value: 'New' }]);
    expect(collectionPatch(ORIGINAL, { ...ORIGINAL, description: undefined })).toEqual([
      { op: 'remove', path: '/description' },
    ]);
  });

  it('switches the mode only when asked for and different', () => {
    expect(collectionPatch(ORIGINAL, { ...ORIGINAL, mode: 'collaborative' })).toEqual([
      { op: 'replace', path: '/mode', value: 'collaborative' },
    ]);
    expect(collectionPatch(ORIGINAL, { ...ORIGINAL, mode: 'owned' })).toEqual([]);
    expect(collectionPatch(ORIGINAL, { ...ORIGINAL, mode: undefined })).toEqual([]);
  });

  it('clears the tags with an empty list', () => {
    expect(collectionPatch(ORIGINAL, { ...ORIGINAL, tags: [] })).toEqual([
      { op: 'replace', path: '/tags', value: [] },
    ]);
  });
});

describe('deadline patch', () => {
  const ROME = { local: '2026-12-01T18:00', timeZone: 'Europe/Rome' };
  const WITH = {
    ...ORIGINAL,
    deadline: { at: '2026-12-01T17:00:00.000Z', ...ROME },
    allowLateUploads: true,
  };
  it('sets, moves and clears a deadline, and the late switch with it', () => {
    expect(
      collectionPatch(ORIGINAL, {
        ...ORIGINAL,
        deadline: { ...ROME, allowLateUploads: true },
      }),
    ).toEqual([
      { op: 'replace', path: '/deadline', value: ROME },
      { op: 'replace', path: '/allowLateUploads', value: true },
    ]);
    expect(
      collectionPatch(WITH, { ...ORIGINAL, deadline: { ...ROME, allowLateUploads: true } }),
    ).toEqual([]);
    expect(
      collectionPatch(WITH, {
        ...ORIGINAL,
        deadline: { ...ROME, timeZone: 'UTC', allowLateUploads: true },
      }),
    ).toEqual([{ op: 'replace', path: '/deadline', value: { ...ROME, timeZone: 'UTC' } }]);
    // Without a deadline the switch means nothing: cleared with it.
    expect(
      collectionPatch(WITH, {
        ...ORIGINAL,
        deadline: { ...ROME, local: '', allowLateUploads: true },
      }),
    ).toEqual([
      { op: 'replace', path: '/deadline', value: null },
      { op: 'replace', path: '/allowLateUploads', value: false },
    ]);
  });
});

describe('unread', () => {
  const updatedAt = '2025-03-05T10:00:00.000Z';
  it('is unread when never opened or changed since', () => {
    expect(isUnread({ readAt: null, updatedAt })).toBe(true);
    expect(isUnread({ readAt: '2025-03-05T09:59:59.000Z', updatedAt })).toBe(true);
    expect(isUnread({ readAt: updatedAt, updatedAt })).toBe(false);
    expect(isUnread({ readAt: '2025-03-06T00:00:00.000Z', updatedAt })).toBe(false);
  });
});
