import { describe, expect, it } from 'vitest';
import { signedInTarget } from './sign-in-redirect';

const TEAM = '0195f0c2-7c1a-7000-8000-00000000000a';

describe('signedInTarget', () => {
  it('prefers the query team, then the remembered page, then the team list', () => {
    expect(signedInTarget(new URLSearchParams(`team=${TEAM}`), '/profile')).toBe(`/teams/${TEAM}`);
    expect(signedInTarget(new URLSearchParams(), '/profile')).toBe('/profile');
    expect(signedInTarget(new URLSearchParams(), null)).toBe('/teams');
  });

  it('returns to a remembered page inside the query team, such as its invitation', () => {
    const accept = `/teams/${TEAM}/invitations/accept?key=k`;
    expect(signedInTarget(new URLSearchParams(`team=${TEAM}`), accept)).toBe(accept);
    // Another team's page, or a path that merely starts with the same characters, does not.
    expect(signedInTarget(new URLSearchParams('team=choir'), accept)).toBe('/teams/choir');
    expect(signedInTarget(new URLSearchParams('team=cho'), '/teams/choir/x')).toBe('/teams/cho');
  });
});
