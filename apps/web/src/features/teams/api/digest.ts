import {
  digestPreferenceSchema,
  type DigestFrequency,
  type DigestPreference,
} from '@raccolta/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';

const digestKey = (teamId: string) => ['teams', 'digest', teamId] as const;

/** GET /teams/{teamId}/members/@me/digest: the caller's digest of new files in the team. */
export function useDigestQuery(teamId: string) {
  const { request } = useSession();
  return useQuery({
    queryKey: digestKey(teamId),
    queryFn: () =>
      request(`/teams/${encodeURIComponent(teamId)}/members/@me/digest`, {
        schema: digestPreferenceSchema,
      }),
  });
}

/** PUT /teams/{teamId}/members/@me/digest. */
export function useDigestMutation(teamId: string) {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (frequency: DigestFrequency) =>
      request(`/teams/${encodeURIComponent(teamId)}/members/@me/digest`, {
        method: 'PUT',
        body: { frequency },
        schema: digestPreferenceSchema,
      }),
    onSuccess: (preference: DigestPreference) =>
      queryClient.setQueryData(digestKey(teamId), preference),
  });
}
