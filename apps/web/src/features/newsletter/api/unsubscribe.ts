import {
  unsubscribeResponseSchema,
  type UnsubscribeRequest,
  type UnsubscribeResponse,
} from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /subscriptions/unsubscribe, with the link of a newsletter e-mail. */
export function postUnsubscribe(body: UnsubscribeRequest): Promise<UnsubscribeResponse> {
  return apiRequest('/subscriptions/unsubscribe', {
    method: 'POST',
    body,
    schema: unsubscribeResponseSchema,
  });
}

export function useUnsubscribeMutation() {
  return useMutation({ mutationFn: postUnsubscribe });
}
