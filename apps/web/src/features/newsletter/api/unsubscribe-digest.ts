import {
  digestUnsubscribeResponseSchema,
  type DigestUnsubscribeRequest,
  type DigestUnsubscribeResponse,
} from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /digests/unsubscribe, with the link in the footer of a digest e-mail. */
export function postDigestUnsubscribe(
  body: DigestUnsubscribeRequest,
): Promise<DigestUnsubscribeResponse> {
  return apiRequest('/digests/unsubscribe', {
    method: 'POST',
    body,
    schema: digestUnsubscribeResponseSchema,
  });
}

export function useDigestUnsubscribeMutation() {
  return useMutation({ mutationFn: postDigestUnsubscribe });
}
