import { credentialsSchema, type Credentials, type Member } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { membersPath } from '../../../lib/members/member-keys';

/** POST /teams/{teamId}/members/{userId}/new-password: a generated password, answered once. */
export function postNewMemberPassword(
  request: AuthedRequest,
  teamId: string,
  userId: string,
): Promise<Credentials> {
  // An empty object rather than no body: the route is a POST that takes JSON.
  return request(`${membersPath(teamId, userId)}/new-password`, {
    method: 'POST',
    body: {},
    schema: credentialsSchema,
  });
}

export function useResetMemberPasswordMutation() {
  const { request } = useSession();
  return useMutation({
    mutationFn: (member: Member) => postNewMemberPassword(request, member.teamId, member.userId),
  });
}
