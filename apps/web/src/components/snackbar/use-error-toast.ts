import { useCallback } from 'react';
import { useErrorText } from '../../lib/error-text';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from './snackbar-context';

/** Shows a failed call as the translated error in a toast that hides after 5 s (spec §2, §8). */
export function useErrorToast(): (error: unknown) => void {
  const { show } = useSnackbar();
  const errorText = useErrorText();
  return useCallback(
    (error: unknown) =>
      show(errorText(error), 'error', { autoHideDuration: ERROR_TOAST_DURATION_MS }),
    [show, errorText],
  );
}
