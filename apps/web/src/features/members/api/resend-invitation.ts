import { memberSchema, type Member } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { storeMember } from '../../../lib/members/member-keys';

/** POST /teams/{teamId}/invitations/resend: a new link (older ones stop working), a new expiry. */
export function postResendInvitation(
  request: AuthedRequest,
  teamId: string,
  userId: string,
): Promise<Member> {
  return request(`/teams/${encodeURIComponent(teamId)}/invitations/resend`, {
    method: 'POST',
    body: { userId },
    schema: memberSchema,
  });
}

export function useResendInvitationMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: Member) => postResendInvitation(request, member.teamId, member.userId),
    onSuccess: (member) => storeMember(queryClient, member),
  });
}
