import { memberSchema, type Member, type MemberPatch } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { memberPatch, type MemberChanges } from '../utils/member-patch';
import { membersPath, storeMember } from '../../../lib/members/member-keys';

/** PATCH /teams/{teamId}/members/{userId} with an RFC 6902 list over /role, /nickname, /status. */
export function patchMember(
  request: AuthedRequest,
  teamId: string,
  userId: string,
  operations: MemberPatch,
): Promise<Member> {
  return request(membersPath(teamId, userId), {
    method: 'PATCH',
    body: operations,
    schema: memberSchema,
  });
}

export interface MemberUpdate {
  member: Member;
  changes: MemberChanges;
}

/** Change role, rename, disable (status disabled) and reactivate (status active). */
export function useUpdateMemberMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ member, changes }: MemberUpdate) =>
      patchMember(request, member.teamId, member.userId, memberPatch(member, changes)),
    onSuccess: (member) => storeMember(queryClient, member),
  });
}
