import {
  credentialsSchema,
  memberSchema,
  type CreateInternalMemberRequest,
} from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { membersPath, refreshMembership } from '../../../lib/members/member-keys';

/** Not in contracts (the API defines it beside its route): the 201 answer for an internal member. */
export const createInternalMemberResponseSchema = z.object({
  member: memberSchema,
  credentials: credentialsSchema,
});
export type CreateInternalMemberResponse = z.infer<typeof createInternalMemberResponseSchema>;

/** POST /teams/{teamId}/members with a username; 400 shortUsername, 409 alreadyExists. */
export function postInternalMember(
  request: AuthedRequest,
  teamId: string,
  body: CreateInternalMemberRequest,
): Promise<CreateInternalMemberResponse> {
  return request(membersPath(teamId), {
    method: 'POST',
    body,
    schema: createInternalMemberResponseSchema,
  });
}

export function useCreateInternalMemberMutation(teamId: string) {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInternalMemberRequest) => postInternalMember(request, teamId, body),
    onSuccess: () => refreshMembership(queryClient, teamId),
  });
}
