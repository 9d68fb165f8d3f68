import type { MeResponse, UpdateProfileRequest } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { presentUser } from './users.presenter.js';
import { updateUserNames, type UserRow } from './users.repository.js';

/**
 * PUT /users/@me: the signed-in user's names. An account deleted while the request was on its way
 * answers as a token of a deleted account does: 401 invalidAuthorization, nothing written.
 */
export async function updateProfile(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  actor: UserRow,
  input: UpdateProfileRequest,
): Promise<MeResponse> {
  const updated = await updateUserNames(ctx.db, actor.id, input, ctx.clock());
  if (!updated) throw new AppError('invalidAuthorization');
  return presentUser(updated);
}
