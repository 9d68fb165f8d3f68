import { describe, expect, it } from 'vitest';
import {
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
