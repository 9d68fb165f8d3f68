import { describe, expect, it } from 'vitest';
import { MEMBER_ROLES } from './constants.js';
import {
  canChangeTeamField,
  TEAM_PATCH_FIELDS,
  createAliasResponseSchema,
  createTeamResponseSchema,
  teamListResponseSchema,
  teamSchema,
} from './teams.js';

const ID = '01940000-0000-7000-8000-000000000000';

const team = {
  teamId: ID,
  name: 'Acme',
  description: null,
  mode: 'collaborative',
  ownerId: ID,
  createdAt: '2025-03-05T12:00:00Z',
  createdBy: ID,
  updatedAt: '2025-03-05T12:00:00.123Z',
  updatedBy: ID,
  membersCount: 1,
  starAlias: 'acme',
  aliases: ['acme'],
  logoUrl: null,
  stripLocation: false,
  requireSecondFactor: false,
};

describe('team shapes', () => {
  it('parses a team with ISO UTC times', () => {
    expect(teamSchema.parse(team)).toEqual(team);
    expect(teamSchema.safeParse({ ...team, createdAt: '2025-03-05' }).success).toBe(false);
    expect(teamSchema.safeParse({ ...team, mode: 'open' }).success).toBe(false);
  });
  it('a team list row carries the caller’s role', () => {
    const page = { teams: [{ ...team, memberRole: 'viewer' }], pagination: { lastKey: 'k' } };
    expect(teamListResponseSchema.parse(page)).toEqual(page);
    expect(teamListResponseSchema.safeParse({ ...page, teams: [team] }).success).toBe(false);
  });
  it('parses the create answers', () => {
    expect(createTeamResponseSchema.parse({ teamId: ID })).toEqual({ teamId: ID });
    expect(createAliasResponseSchema.parse({ alias: 'acme' })).toEqual({ alias: 'acme' });
  });
});

describe('canChangeTeamField', () => {
  // Typed from spec §6 (updateTeam: owner, admin; the preferred alias with the aliases: owner).
  const table = {
    owner: {
      name: true,
      description: true,
      mode: true,
      starAlias: true,
      stripLocation: true,
      requireSecondFactor: true,
    },
    admin: {
      name: true,
      description: true,
      mode: true,
      starAlias: false,
      stripLocation: true,
      requireSecondFactor: false,
    },
    uploader: {
      name: false,
      description: false,
      mode: false,
      starAlias: false,
      stripLocation: false,
      requireSecondFactor: false,
    },
    viewer: {
      name: false,
      description: false,
      mode: false,
      starAlias: false,
      stripLocation: false,
      requireSecondFactor: false,
    },
  } as const;

  it('follows the table for every role and field, and the table covers them all', () => {
    expect(Object.keys(table).sort()).toEqual([...MEMBER_ROLES].sort());
    for (const role of MEMBER_ROLES) {
      expect(Object.keys(table[role]).sort()).toEqual([...TEAM_PATCH_FIELDS].sort());
      for (const field of TEAM_PATCH_FIELDS) {
        expect([role, field, canChangeTeamField(role, field)]).toEqual([
          role,
          field,
          table[role][field],
        ]);
      }
    }
  });
});
