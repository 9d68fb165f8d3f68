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
