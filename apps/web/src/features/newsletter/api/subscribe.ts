import type { SubscribeRequest, SubscribeResponse } from '@raccolta/contracts';
import { useCallback, useRef, useState } from 'react';
import { apiRequest } from '../../../lib/api-client';

/** POST /subscriptions: a confirmation e-mail follows (double opt-in). */
export function postSubscribe(body: SubscribeRequest): Promise<SubscribeResponse> {
  return apiRequest('/subscriptions', {
    method: 'POST',
    body,
    schema: () => import('../utils/newsletter-schemas').then((m) => m.subscribeResponseSchema),
  });
}

type SubscribeState =
  | { status: 'idle'; variables: undefined; error: null }
  | { status: 'pending' | 'success'; variables: SubscribeRequest; error: null }
  | { status: 'error'; variables: SubscribeRequest; error: unknown };

const IDLE: SubscribeState = { status: 'idle', variables: undefined, error: null };

/**
 * The subscribe request's state, as a mutation of the query library would keep it (the landing
 * page does without that library): the last request's values, pending, success or its error.
 * Only the latest request's answer counts.
 */
export function useSubscribe() {
  const [state, setState] = useState<SubscribeState>(IDLE);
  const latest = useRef(0);

  const mutate = useCallback((variables: SubscribeRequest) => {
    latest.current += 1;
    const attempt = latest.current;
    setState({ status: 'pending', variables, error: null });
    postSubscribe(variables).then(
      () => {
        if (attempt === latest.current) setState({ status: 'success', variables, error: null });
      },
      (error: unknown) => {
        if (attempt === latest.current) setState({ status: 'error', variables, error });
      },
    );
  }, []);

  const reset = useCallback(() => {
    latest.current += 1;
    setState(IDLE);
  }, []);

  return {
    mutate,
    reset,
    variables: state.variables,
    error: state.error,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
  };
}
