import { describe, expect, it } from 'vitest';
import { MEMBER_ROLES, type MemberRole } from './constants.js';
import {
  canReceiveDigest,
  defaultDigestFrequency,
  digestUnsubscribeRequestSchema,
  effectiveDigestFrequency,
  putDigestPreferenceSchema,
  type DigestFrequency,
} from './digests.js';

// Typed by hand from issue #36, not derived from the code.
const DEFAULTS: Record<MemberRole, DigestFrequency> = {
  owner: 'daily',
  admin: 'daily',
  uploader: 'never',
  viewer: 'never',
};

const RECEIVES: [MemberRole, boolean, boolean][] = [
  ['owner', true, true],
  ['owner', false, false],
  ['admin', true, true],
  ['admin', false, false],
  ['uploader', true, true],
  ['uploader', false, false],
  ['viewer', true, true],
  ['viewer', false, false],
];

describe('digest preference rules', () => {
  it('defaults to daily for owners and admins, never for everyone else', () => {
    expect(Object.keys(DEFAULTS).sort()).toEqual([...MEMBER_ROLES].sort());
    for (const role of MEMBER_ROLES)
      expect(defaultDigestFrequency(role), role).toBe(DEFAULTS[role]);
  });

  it('a choice wins over the default, whatever the role', () => {
    for (const role of MEMBER_ROLES) {
      expect(effectiveDigestFrequency(role, null)).toBe(DEFAULTS[role]);
      expect(effectiveDigestFrequency(role, 'never')).toBe('never');
      expect(effectiveDigestFrequency(role, 'instant')).toBe('instant');
      expect(effectiveDigestFrequency(role, 'daily')).toBe('daily');
    }
  });

  it('only members with an e-mail address receive digests', () => {
    expect(RECEIVES).toHaveLength(MEMBER_ROLES.length * 2);
    for (const [role, hasEmail, allowed] of RECEIVES)
      expect(canReceiveDigest({ role, hasEmail }), `${role} ${hasEmail}`).toBe(allowed);
  });

  it('takes only the three frequencies', () => {
    expect(putDigestPreferenceSchema.safeParse({ frequency: 'weekly' }).success).toBe(false);
    expect(putDigestPreferenceSchema.safeParse({ frequency: 'instant' }).success).toBe(true);
  });

  it('reports any broken unsubscribe link as invalidUnsubscribe', () => {
    const result = digestUnsubscribeRequestSchema.safeParse({ team: 't', user: '', token: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('invalidUnsubscribe');
  });
});
