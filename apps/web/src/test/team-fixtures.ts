import type { Member, MemberRole, Team, TeamListItem, User } from '@raccolta/contracts';
import { ADA } from './session-fixtures';

export const TEAM_ID = '0195f0c2-7c1a-7000-8000-00000000000a';

export const ME: User = {
  userId: ADA.sub,
  userScope: 'global',
  email: ADA.email,
  username: ADA.username,
  nickname: 'Ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
  avatarUrl: null,
};

export function team(overrides: Partial<Team> = {}): Team {
  return {
    teamId: TEAM_ID,
    name: 'Choir',
    description: 'Sopranos and altos',
    mode: 'collaborative',
    ownerId: ADA.sub,
    createdAt: '2025-03-05T10:00:00.000Z',
    createdBy: ADA.sub,
    updatedAt: '2025-03-05T10:00:00.000Z',
    updatedBy: ADA.sub,
    membersCount: 3,
    starAlias: 'choir',
    aliases: ['choir'],
    logoUrl: null,
    stripLocation: false,
    requireSecondFactor: false,
    ...overrides,
  };
}

export function teamListItem(overrides: Partial<TeamListItem> = {}): TeamListItem {
  return { ...team(), memberRole: 'owner', ...overrides };
}

let counter = 100;

export function member(overrides: Partial<Member> = {}): Member {
  counter += 1;
  return {
    userId: `0195f0c2-7c1a-7000-8000-000000000${counter}`,
    teamId: TEAM_ID,
    nickname: `Member ${counter}`,
    role: 'uploader',
    status: 'active',
    type: 'standard',
    email: `member${counter}@example.com`,
    username: null,
    createdAt: '2025-03-05T10:00:00.000Z',
    createdBy: ADA.sub,
    joinedAt: '2025-03-05T11:00:00.000Z',
    avatarUrl: null,
    inviteExpiresAt: null,
    ...overrides,
  };
}

/** The signed-in test user (Ada) as a member of the team with `role`. */
export function self(role: MemberRole): Member {
  return member({ userId: ADA.sub, nickname: 'Ada', role, email: ADA.email });
}
