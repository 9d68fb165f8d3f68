import {
  confirmSubscriptionResponseSchema,
  type ConfirmSubscriptionRequest,
  type ConfirmSubscriptionResponse,
} from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /subscriptions/confirm, with the link of the confirmation e-mail. */
export function postConfirmSubscription(
  body: ConfirmSubscriptionRequest,
): Promise<ConfirmSubscriptionResponse> {
  return apiRequest('/subscriptions/confirm', {
    method: 'POST',
    body,
    schema: confirmSubscriptionResponseSchema,
  });
}

export function useConfirmSubscriptionMutation() {
  return useMutation({ mutationFn: postConfirmSubscription });
}
