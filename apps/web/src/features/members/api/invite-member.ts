import { memberSchema, type InviteMemberRequest, type Member } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { membersPath, refreshMembership } from '../../../lib/members/member-keys';

/** Not in contracts (the API defines it beside its route): the 201 answer of an invitation. */
const inviteMemberResponseSchema = z.object({ member: memberSchema });

/**
 * POST /teams/{teamId}/members with an e-mail. 409 alreadyExists or nicknameAlreadyExists; 502
 * cannotSendInvitationEmail when the mail server refused the mail, though the member was added.
 */
export async function postInvitation(
  request: AuthedRequest,
  teamId: string,
  body: InviteMemberRequest,
): Promise<Member> {
  const { member } = await request(membersPath(teamId), {
    method: 'POST',
    body,
    schema: inviteMemberResponseSchema,
  });
  return member;
}

export function useInviteMemberMutation(teamId: string) {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteMemberRequest) => postInvitation(request, teamId, body),
    // Also on cannotSendInvitationEmail: the member exists and the list must show it.
    onSettled: () => refreshMembership(queryClient, teamId),
  });
}
