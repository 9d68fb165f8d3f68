import { describe, expect, it } from 'vitest';
import { DISPLAY_MEMBER_STATUSES } from './constants.js';
import {
  credentialsSchema,
  derivedMemberStatus,
  MEMBER_STATUS_COLOR,
  memberListResponseSchema,
  memberSchema,
} from './members.js';

const NOW = Date.UTC(2025, 2, 5, 12);
const ID = '01940000-0000-7000-8000-000000000000';

describe('derived member status', () => {
  it('an invited member whose invitation expires now or earlier is invitation_expired', () => {
    expect(derivedMemberStatus({ status: 'invited', inviteExpiresAt: NOW - 1 }, NOW)).toBe(
      'invitation_expired',
    );
    expect(derivedMemberStatus({ status: 'invited', inviteExpiresAt: NOW }, NOW)).toBe(
      'invitation_expired',
    );
  });
  it('otherwise the stored status stands', () => {
    expect(derivedMemberStatus({ status: 'invited', inviteExpiresAt: NOW + 1 }, NOW)).toBe(
      'invited',
    );
    expect(derivedMemberStatus({ status: 'invited', inviteExpiresAt: null }, NOW)).toBe('invited');
    expect(derivedMemberStatus({ status: 'invited' }, NOW)).toBe('invited');
    expect(derivedMemberStatus({ status: 'active', inviteExpiresAt: NOW - 1 }, NOW)).toBe('active');
    expect(derivedMemberStatus({ status: 'rejected', inviteExpiresAt: NOW - 1 }, NOW)).toBe(
      'rejected',
    );
  });
});

describe('status colours (spec §4)', () => {
  it.each([
    ['active', 'success'],
    ['invited', 'warning'],
    ['pending', 'warning'],
    ['rejected', 'error'],
    ['left', 'error'],
    ['banned', 'error'],
    ['disabled', 'error'],
    ['invitation_expired', 'error'],
  ] as const)('%s is %s', (status, color) => {
    expect(MEMBER_STATUS_COLOR[status]).toBe(color);
  });
  it('covers every status shown', () => {
    expect(Object.keys(MEMBER_STATUS_COLOR).sort()).toEqual([...DISPLAY_MEMBER_STATUSES].sort());
  });
});

describe('member shapes', () => {
  const member = {
    userId: ID,
    teamId: ID,
    nickname: 'Zoë',
    role: 'uploader',
    status: 'invited',
    type: 'standard',
    email: 'zoe@example.it',
    username: null,
    createdAt: '2025-03-05T12:00:00.000Z',
    createdBy: ID,
    joinedAt: null,
    avatarUrl: null,
    inviteExpiresAt: NOW,
  };

  it('parses a member; inviteExpiresAt is epoch milliseconds, other times ISO strings', () => {
    expect(memberSchema.parse(member)).toEqual(member);
    expect(
      memberSchema.safeParse({ ...member, inviteExpiresAt: '2025-03-05T12:00:00Z' }).success,
    ).toBe(false);
    expect(memberSchema.safeParse({ ...member, createdAt: NOW }).success).toBe(false);
  });
  it('knows only the spec roles, statuses and types', () => {
    expect(memberSchema.safeParse({ ...member, role: 'guest' }).success).toBe(false);
    expect(memberSchema.safeParse({ ...member, status: 'invitation_expired' }).success).toBe(false);
    expect(memberSchema.safeParse({ ...member, type: 'external' }).success).toBe(false);
  });
  it('parses a page of members and a set of credentials', () => {
    const page = { members: [member], pagination: { lastKey: null } };
    expect(memberListResponseSchema.parse(page)).toEqual(page);
    const credentials = {
      teamId: ID,
      teamAlias: 'acme',
      username: 'mario.rossi',
      password: 'Xy1!',
      teamCode: 'K7QM3XR',
    };
    expect(credentialsSchema.parse(credentials)).toEqual(credentials);
    expect(credentialsSchema.safeParse({ ...credentials, password: undefined }).success).toBe(
      false,
    );
  });
});
