import type { Member } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { memberKeys, membersPath, refreshMembership } from '../../../lib/members/member-keys';

/** DELETE /teams/{teamId}/members/{userId}: 204 with no body (and none sent, so no content type). */
export function deleteMember(
  request: AuthedRequest,
  teamId: string,
  userId: string,
): Promise<void> {
  return request(membersPath(teamId, userId), { method: 'DELETE', schema: z.undefined() });
}

export function useRemoveMemberMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: Member) => deleteMember(request, member.teamId, member.userId),
    onSuccess: (_data, member) => {
      queryClient.removeQueries({ queryKey: memberKeys.detail(member.teamId, member.userId) });
      return refreshMembership(queryClient, member.teamId);
    },
  });
}
