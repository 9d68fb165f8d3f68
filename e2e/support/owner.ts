import type { APIRequestContext } from '@playwright/test';
import { createVerifiedAccount, newAccount, type Account } from './accounts.js';
import { apiCreateCollection, apiSignIn } from './collections.js';
import { apiCreateTeam } from './teams.js';

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
