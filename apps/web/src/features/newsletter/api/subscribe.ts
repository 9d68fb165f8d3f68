import type { SubscribeRequest, SubscribeResponse } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /subscriptions: a confirmation e-mail follows (double opt-in). */
export function postSubscribe(body: SubscribeRequest): Promise<SubscribeResponse> {
  return apiRequest('/subscriptions', {
    method: 'POST',
    body,
    schema: () => import('../utils/newsletter-schemas').then((m) => m.subscribeResponseSchema),
  });
}

export function useSubscribeMutation() {
  return useMutation({ mutationFn: postSubscribe });
}
