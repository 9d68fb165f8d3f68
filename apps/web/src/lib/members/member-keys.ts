import type { Member } from '@raccolta/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { teamKeys } from '../teams/team-keys';

/** Query keys of a team's members, under the team's id so one team's changes touch only its own. */
export const memberKeys = {
  all: (teamId: string) => ['members', teamId] as const,
  lists: (teamId: string) => [...memberKeys.all(teamId), 'list'] as const,
  list: (teamId: string, prefix: string) => [...memberKeys.lists(teamId), { prefix }] as const,
  detail: (teamId: string, userId: string) =>
    [...memberKeys.all(teamId), 'detail', userId] as const,
};

export function membersPath(teamId: string, userId?: string): string {
  const base = `/teams/${encodeURIComponent(teamId)}/members`;
  return userId === undefined ? base : `${base}/${encodeURIComponent(userId)}`;
}

interface MemberPage {
  members: Member[];
}

/**
 * After a change to one member: the answer replaces it in the cache at once, then the lists are
 * fetched again, since a rename or a removal can move members across pages and search results.
 */
export function storeMember(queryClient: QueryClient, member: Member): void {
  queryClient.setQueryData(memberKeys.detail(member.teamId, member.userId), member);
  queryClient.setQueriesData<InfiniteData<MemberPage>>(
    { queryKey: memberKeys.lists(member.teamId) },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          members: page.members.map((m) => (m.userId === member.userId ? member : m)),
        })),
      },
  );
  void queryClient.invalidateQueries({ queryKey: memberKeys.lists(member.teamId) });
}

/**
 * After a member was added or removed: the member lists, and the teams (their details and the
 * team list count the members), are fetched again.
 */
export function refreshMembership(queryClient: QueryClient, teamId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: memberKeys.lists(teamId) }),
    queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  ]);
}
