import { useCallback } from 'react';
import { useSnackbar } from './snackbar-context';
import { useErrorToast } from './use-error-toast';

/**
 * The outcome of a confirmed action, for `mutate`'s callbacks: on success `done` in a success toast,
 * on failure the translated error; either way `then` runs (typically closing the dialog).
 */
export function useOutcomeToast(): (
  done: string,
  then: () => void,
) => { onSuccess: () => void; onError: (error: unknown) => void } {
  const { show } = useSnackbar();
  const showError = useErrorToast();
  return useCallback(
    (done, then) => ({
      onSuccess: () => {
        show(done, 'success');
        then();
      },
      onError: (error) => {
        showError(error);
        then();
      },
    }),
    [show, showError],
  );
}
