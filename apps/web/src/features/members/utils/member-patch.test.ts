import { memberPatchSchema } from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import { member } from '../../../test/team-fixtures';
import { memberPatch } from './member-patch';

describe('memberPatch', () => {
  it('replaces only what differs, in the order role, nickname, status', () => {
    const original = member({ role: 'uploader', nickname: 'Bea', status: 'active' });
    const patch = memberPatch(original, { status: 'disabled', nickname: 'Bea', role: 'viewer' });
    expect(patch).toEqual([
      { op: 'replace', path: '/role', value: 'viewer' },
      { op: 'replace', path: '/status', value: 'disabled' },
    ]);
    // What the server's schema accepts.
    expect(memberPatchSchema.safeParse(patch).success).toBe(true);
  });

  it('is empty when nothing changed', () => {
    const original = member();
    expect(memberPatch(original, { role: original.role })).toEqual([]);
  });
});
