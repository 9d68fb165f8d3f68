import type { RejectInvitationRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { invitationPath } from './accept-invitation';

/** Not in contracts (the API defines it beside its route). */
const rejectInvitationResponseSchema = z.object({ rejected: z.literal(true) });

/** POST /teams/{teamId}/invitations/reject: the link's token is enough, whoever is signed in. */
export function postRejectInvitation(teamId: string, body: RejectInvitationRequest) {
  return apiRequest(invitationPath(teamId, 'reject'), {
    method: 'POST',
    body,
    schema: rejectInvitationResponseSchema,
  });
}

export function useRejectInvitationMutation(teamId: string) {
  return useMutation({
    mutationFn: (body: RejectInvitationRequest) => postRejectInvitation(teamId, body),
  });
}
