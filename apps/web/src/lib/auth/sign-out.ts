import type { SignOutRequest } from '@raccolta/contracts';
import { anyBody, apiRequest } from '../api-client';

/** POST /auth/signout: revokes every session of the user, on every device. */
export async function postSignOut(body: SignOutRequest): Promise<void> {
  await apiRequest('/auth/signout', { method: 'POST', body, schema: anyBody });
}
