import type { MemberActionInput } from '@raccolta/contracts';
import { useSession } from '../auth/session/session-context';
import { useMemberQuery } from '../members/get-member';

/**
 * The signed-in user as a member of the team: GET /teams/{id} has no role for the caller (only
 * the list has memberRole), so the menus read the caller's own member row. Null while it loads.
 */
export function useTeamActor(teamId: string | null): MemberActionInput['actor'] | null {
  const { idClaims } = useSession();
  const userId = idClaims?.sub ?? null;
  const { data } = useMemberQuery(teamId, userId);
  return data !== undefined && userId !== null ? { userId, role: data.role } : null;
}

/**
 * useTeamActor with the state of its query, for a screen that waits on the actor: why it failed
 * (a team asking for a second factor answers 403 secondFactorEnrolmentRequired) and how to retry.
 */
export function useTeamActorState(teamId: string | null) {
  const { idClaims } = useSession();
  const userId = idClaims?.sub ?? null;
  const query = useMemberQuery(teamId, userId);
  const actor: MemberActionInput['actor'] | null =
    query.data !== undefined && userId !== null ? { userId, role: query.data.role } : null;
  return {
    actor,
    error: query.error,
    paused: query.fetchStatus === 'paused',
    retry: () => void query.refetch(),
  };
}
