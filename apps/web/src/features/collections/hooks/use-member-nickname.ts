import type { Collection } from '@raccolta/contracts';
import { useMemberQuery } from '../../../lib/members/get-member';

/**
 * The name of the member a filter names by id: from the loaded rows when it is there (no call),
 * else from their member row. Undefined while that loads; null when they are no longer in the team.
 */
export function useMemberNickname(
  teamId: string,
  userId: string | undefined,
  collections: readonly Collection[],
): string | null | undefined {
  const known =
    userId === undefined
      ? undefined
      : collections
          .flatMap((collection) => [collection.owner, ...collection.taggedMembers])
          .find((ref) => ref.userId === userId && ref.nickname !== null)?.nickname;
  const lookup = userId !== undefined && known === undefined ? userId : null;
  const query = useMemberQuery(lookup === null ? null : teamId, lookup);
  if (userId === undefined) return undefined;
  if (known !== undefined) return known;
  if (query.data !== undefined) return query.data.nickname;
  return query.isError ? null : undefined;
}
