import type { APIRequestContext } from '@playwright/test';
import { createVerifiedAccount, newAccount, type Account } from './accounts.js';
import { apiAcceptInvitation, apiCreateCollection, apiSignIn } from './collections.js';
import { apiCreateTeam, apiInvite, invitationLink } from './teams.js';

export interface OwnerWithTeam {
  owner: Account;
  /** The owner's access token, from a sign-in through the API. */
  token: string;
  teamId: string;
}

/** A verified owner (a new address from `prefix`), signed in through the API, with a team. */
export async function apiOwnerWithTeam(
  request: APIRequestContext,
  prefix: string,
  team: Parameters<typeof apiCreateTeam>[2],
): Promise<OwnerWithTeam> {
  const owner = newAccount(prefix);
  await createVerifiedAccount(request, owner);
  const token = await apiSignIn(request, owner.email, owner.password);
  const teamId = await apiCreateTeam(request, token, team);
  return { owner, token, teamId };
}

/** As `apiOwnerWithTeam`, with a collaborative collection in the team. */
export async function apiOwnerWithCollection(
  request: APIRequestContext,
  prefix: string,
  team: Parameters<typeof apiCreateTeam>[2],
  collection: Parameters<typeof apiCreateCollection>[3],
): Promise<OwnerWithTeam & { collectionId: string }> {
  const made = await apiOwnerWithTeam(request, prefix, team);
  const collectionId = await apiCreateCollection(request, made.token, made.teamId, collection);
  return { ...made, collectionId };
}

/**
 * A verified account (a new address from `prefix`) invited to the team by its owner with this
 * nickname and role, signed in through the API, who has accepted the invitation e-mailed to it.
 */
export async function apiJoinedMember(
  request: APIRequestContext,
  ownerToken: string,
  teamId: string,
  prefix: string,
  invite: { nickname: string; role: 'admin' | 'uploader' | 'viewer' },
): Promise<{ account: Account; token: string }> {
  const account = { ...newAccount(prefix), nickname: invite.nickname };
  await createVerifiedAccount(request, account);
  await apiInvite(request, ownerToken, teamId, { email: account.email, ...invite });
  const token = await apiSignIn(request, account.email, account.password);
  await apiAcceptInvitation(
    request,
    token,
    teamId,
    await invitationLink(account.email, teamId, 'accept'),
  );
  return { account, token };
}
