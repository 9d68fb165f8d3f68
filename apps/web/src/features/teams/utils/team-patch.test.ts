import { describe, expect, it } from 'vitest';
import { team } from '../../../test/team-fixtures';
import { teamPatch } from './team-patch';

describe('teamPatch', () => {
  it('computes a rename as one replace of /name', () => {
    const original = team();
    expect(teamPatch(original, { ...original, name: 'Chamber choir' })).toEqual([
      { op: 'replace', path: '/name', value: 'Chamber choir' },
    ]);
  });

  it('lists nothing when nothing changed', () => {
    const original = team();
    expect(teamPatch(original, { ...original })).toEqual([]);
  });

  it('adds a value that was null, removes one that becomes null, in field order', () => {
    const original = team({ description: null, starAlias: 'choir' });
    expect(
      teamPatch(original, {
        ...original,
        description: 'Altos',
        mode: 'controlled',
        starAlias: null,
      }),
    ).toEqual([
      { op: 'add', path: '/description', value: 'Altos' },
      { op: 'replace', path: '/mode', value: 'controlled' },
      { op: 'remove', path: '/starAlias' },
    ]);
  });
});
