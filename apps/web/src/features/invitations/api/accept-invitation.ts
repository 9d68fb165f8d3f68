import { memberRoleSchema, type AcceptInvitationRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, isApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth/session/session-context';

/**
 * Not in contracts (the API defines it beside its route): the accept answer. `auth` is checked by
 * the session when it stores it, so missing tokens read as the spec's tokensMissing.
 */
const acceptInvitationResponseSchema = z.object({
  membership: z.object({ role: memberRoleSchema, teamId: z.uuid(), teamName: z.string() }),
  auth: z.unknown(),
});
export type AcceptedMembership = z.infer<typeof acceptInvitationResponseSchema>['membership'];

/**
 * The `data` of the accept flow errors (newInvitedAccountRequired, notLoggedIn, emailMismatch): the
 * invited address, the team's name and who invited.
 */
const invitationSummarySchema = z.object({
  email: z.string().nullable().catch(null),
  teamName: z.string().nullable().catch(null),
  inviterName: z.string().nullable().catch(null),
});
export type InvitationSummary = z.infer<typeof invitationSummarySchema>;

/** What an accept error tells about the invitation; all null when it tells nothing. */
export function invitationSummaryOf(error: unknown): InvitationSummary {
  const parsed = isApiError(error) ? invitationSummarySchema.safeParse(error.data ?? {}) : null;
  return parsed?.success ? parsed.data : { email: null, teamName: null, inviterName: null };
}

/** The invited e-mail an accept error carries, for the flows it drives; null otherwise. */
export function invitedEmailOf(error: unknown): string | null {
  return invitationSummaryOf(error).email;
}

export function invitationPath(teamId: string, action: 'accept' | 'reject'): string {
  return `/teams/${encodeURIComponent(teamId)}/invitations/${action}`;
}

/**
 * POST /teams/{teamId}/invitations/accept. Signed in, the call carries the session (the server
 * checks the invitation is for this user); signed out, it goes without. When the answer holds a
 * session (an invited account just completed with a password), the user is signed in with it.
 */
export function useAcceptInvitationMutation(teamId: string) {
  const session = useSession();
  return useMutation({
    mutationFn: async (body: AcceptInvitationRequest): Promise<AcceptedMembership> => {
      const options = {
        method: 'POST' as const,
        body,
        schema: acceptInvitationResponseSchema,
      };
      const path = invitationPath(teamId, 'accept');
      const result =
        session.status === 'signedIn'
          ? await session.request(path, options)
          : await apiRequest(path, options);
      if (result.auth !== null && result.auth !== undefined) session.signIn(result.auth, false);
      return result.membership;
    },
  });
}
