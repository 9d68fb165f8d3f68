import {
  recoveryCodesResponseSchema,
  secondFactorsResponseSchema,
  totpEnrolmentResponseSchema,
  type PasskeyRegisterRequest,
  type ReauthenticateRequest,
  type RecoveryCodesResponse,
  type TotpDisableRequest,
} from '@raccolta/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/auth/session/session-context';

/** GET /users/@me/second-factors and the calls that change them (profile, Security). */
export function secondFactorsQueryKey(userId: string | undefined) {
  return ['second-factors', userId] as const;
}

export function useSecondFactors() {
  const { request, idClaims } = useSession();
  return useQuery({
    queryKey: secondFactorsQueryKey(idClaims?.sub),
    queryFn: () => request('/users/@me/second-factors', { schema: secondFactorsResponseSchema }),
  });
}

function useRefresh() {
  const { idClaims } = useSession();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: secondFactorsQueryKey(idClaims?.sub) });
}

export function useStartTotp() {
  const { request } = useSession();
  return useMutation({
    mutationFn: () =>
      request('/users/@me/totp', { method: 'POST', schema: totpEnrolmentResponseSchema }),
  });
}

export function useConfirmTotp() {
  const { request } = useSession();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string): Promise<RecoveryCodesResponse> =>
      request('/users/@me/totp/confirm', {
        method: 'POST',
        body: { code },
        schema: recoveryCodesResponseSchema,
      }),
    onSuccess: refresh,
  });
}

export function useDisableTotp() {
  const { request } = useSession();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: TotpDisableRequest) =>
      request('/users/@me/totp', { method: 'DELETE', body, schema: z.object({}) }),
    onSuccess: refresh,
  });
}

export function useRegenerateRecoveryCodes() {
  const { request } = useSession();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () =>
      request('/users/@me/recovery-codes', {
        method: 'POST',
        schema: recoveryCodesResponseSchema,
      }),
    onSuccess: refresh,
  });
}

/** Creates a passkey on this device (the browser library loads on use) and adds it. */
export function useAddPasskey() {
  const { request } = useSession();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (name: string): Promise<RecoveryCodesResponse> => {
      const options = await request('/users/@me/passkeys/options', {
        method: 'POST',
        schema: z.looseObject({ challenge: z.string() }),
      });
      const { startRegistration } = await import('@simplewebauthn/browser');
      const created = await startRegistration({
        optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
      });
      const body: PasskeyRegisterRequest = {
        name,
        response: { ...created, type: 'public-key', response: { ...created.response } },
      };
      return request('/users/@me/passkeys', {
        method: 'POST',
        body,
        schema: recoveryCodesResponseSchema,
      });
    },
    onSuccess: refresh,
  });
}

export function useRemovePasskey() {
  const { request } = useSession();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) =>
      request(`/users/@me/passkeys/${id}`, { method: 'DELETE', schema: z.object({}) }),
    onSuccess: refresh,
  });
}

/** POST /users/@me/reauthenticate: this session's sign-in counts as recent again. */
export function useReauthenticate() {
  const { request } = useSession();
  return useMutation({
    mutationFn: (body: ReauthenticateRequest) =>
      request('/users/@me/reauthenticate', { method: 'POST', body, schema: z.object({}) }),
  });
}
