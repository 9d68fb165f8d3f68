import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  acceptInvitationLinkQuerySchema,
  acceptInvitationRequestSchema,
  createAliasRequestSchema,
  createCollectionFormSchema,
  createCollectionRequestSchema,
  createInternalMemberRequestSchema,
  createTeamFormSchema,
  createTeamRequestSchema,
  inviteMemberRequestSchema,
  rejectInvitationLinkQuerySchema,
  rejectInvitationRequestSchema,
  renameMemberFormSchema,
  renameTeamFormSchema,
  resendInvitationRequestSchema,
} from './validation-teams.js';

function issues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('create team', () => {
  it('takes name, optional description and owner nickname, and mode', () => {
    expect(createTeamRequestSchema.parse({ name: ' Acme ', mode: 'controlled' })).toEqual({
      name: 'Acme',
      mode: 'controlled',
    });
    expect(
      createTeamRequestSchema.parse({
        name: 'Acme',
        description: '  ',
        nickname: '',
        mode: 'collaborative',
      }),
    ).toEqual({ name: 'Acme', description: undefined, nickname: undefined, mode: 'collaborative' });
  });
  it('reports each rule', () => {
    expect(issues(createTeamRequestSchema, {})).toEqual([
      'name: teamNameRequired',
      'mode: teamModeRequired',
    ]);
    expect(
      issues(createTeamRequestSchema, {
        name: 'A',
        description: 'x'.repeat(251),
        nickname: 'R2D2',
        mode: 'open',
      }),
    ).toEqual([
      'name: teamNameShort',
      'description: teamDescriptionLong',
      'nickname: policyNickname',
      'mode: teamModeRequired',
    ]);
  });
  it('the dialog sends the mode as a required checkbox', () => {
    expect(createTeamFormSchema.parse({ name: 'Acme', isCollaborative: true })).toEqual({
      name: 'Acme',
      isCollaborative: true,
    });
    expect(issues(createTeamFormSchema, { name: 'Acme' })).toEqual([
      'isCollaborative: teamModeRequired',
    ]);
  });
  it('rename takes a team name', () => {
    expect(issues(renameTeamFormSchema, { name: ' ' })).toEqual(['name: teamNameRequired']);
  });
});

describe('create alias', () => {
  it('lower-cases the alias and marks a new alias preferred', () => {
    expect(createAliasRequestSchema.parse({ alias: ' Acme-Team ' })).toEqual({
      alias: 'acme-team',
      star: true,
    });
    expect(createAliasRequestSchema.parse({ alias: 'acme', star: false })).toEqual({
      alias: 'acme',
      star: false,
    });
  });
  it('reports the alias rules', () => {
    expect(issues(createAliasRequestSchema, { alias: '' })).toEqual(['alias: aliasRequired']);
    expect(issues(createAliasRequestSchema, { alias: '-acme' })).toEqual(['alias: policyAlias']);
  });
});

describe('members', () => {
  const invite = { email: 'zoe@example.it', nickname: 'Zoë', role: 'viewer', locale: 'en' };

  it('invite takes e-mail, nickname, role and locale', () => {
    expect(inviteMemberRequestSchema.parse(invite)).toEqual(invite);
    expect(issues(inviteMemberRequestSchema, { ...invite, role: 'owner' })).toEqual([
      'role: roleRequired',
    ]);
    expect(issues(inviteMemberRequestSchema, { locale: 'en' })).toEqual([
      'email: emailRequired',
      'nickname: nicknameRequired',
      'role: roleRequired',
    ]);
  });
  it('an internal member is always an uploader', () => {
    const body = { username: 'mario.rossi', role: 'uploader', locale: 'it' };
    expect(createInternalMemberRequestSchema.parse(body)).toEqual(body);
    expect(issues(createInternalMemberRequestSchema, { ...body, role: 'admin' })).toEqual([
      'role: roleRequired',
    ]);
    expect(issues(createInternalMemberRequestSchema, { ...body, username: 'mario_rossi' })).toEqual(
      ['username: policyUsername'],
    );
  });
  it('rename takes a nickname; resend takes a user id', () => {
    expect(issues(renameMemberFormSchema, { nickname: 'J' })).toEqual(['nickname: nicknameShort']);
    expect(issues(resendInvitationRequestSchema, { userId: 'zoe' })).toEqual([
      'userId: invalidInput',
    ]);
  });
});

describe('invitations', () => {
  it('a link without its key is invalid', () => {
    expect(issues(acceptInvitationLinkQuerySchema, {})).toEqual(['key: invalidAcceptToken']);
    expect(issues(rejectInvitationLinkQuerySchema, { key: '' })).toEqual([
      'key: invalidRejectToken',
    ]);
  });
  it('accept takes the token, and a password on the new-account retry', () => {
    expect(acceptInvitationRequestSchema.parse({ token: 't' })).toEqual({ token: 't' });
    expect(acceptInvitationRequestSchema.parse({ token: 't', password: 'Abcdef1!' })).toEqual({
      token: 't',
      password: 'Abcdef1!',
    });
    expect(issues(acceptInvitationRequestSchema, { token: 't', password: 'abc' })).toEqual([
      'password: passwordShort',
    ]);
    expect(issues(rejectInvitationRequestSchema, {})).toEqual(['token: invalidRejectToken']);
  });
});

describe('create collection', () => {
  it('takes name, optional description and mode', () => {
    expect(
      createCollectionRequestSchema.parse({ name: ' Trip ', description: ' ', mode: 'owned' }),
    ).toEqual({ name: 'Trip', description: undefined, mode: 'owned' });
  });
  it('reports each rule', () => {
    expect(
      issues(createCollectionRequestSchema, {
        name: 'T',
        description: 'x'.repeat(251),
        mode: 'shared',
      }),
    ).toEqual([
      'name: collectionNameShort',
      'description: collectionDescriptionLong',
      'mode: collectionModeRequired',
    ]);
    expect(issues(createCollectionFormSchema, { name: 'Trip' })).toEqual([
      'isCollaborative: collectionModeRequired',
    ]);
  });
});
