import { memberSchema, type Member } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { queryPresets } from '../query-client';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { memberKeys, membersPath } from './member-keys';

/** GET /teams/{teamId}/members/{userId}. */
export function getMember(
  request: AuthedRequest,
  teamId: string,
  userId: string,
  signal?: AbortSignal,
): Promise<Member> {
  return request(membersPath(teamId, userId), { schema: memberSchema, signal });
}

/** One member; `placeholder` (the row of a list) shows at once while the fresh copy loads. */
export function useMemberQuery(teamId: string | null, userId: string | null, placeholder?: Member) {
  const { request, status } = useSession();
  return useQuery({
    queryKey: memberKeys.detail(teamId ?? '', userId ?? ''),
    queryFn: ({ signal }) => getMember(request, teamId ?? '', userId ?? '', signal),
    enabled: status === 'signedIn' && teamId !== null && userId !== null,
    placeholderData: placeholder,
    ...queryPresets.member,
  });
}
