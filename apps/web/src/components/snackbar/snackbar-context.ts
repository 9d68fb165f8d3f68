import type { AlertColor } from '@mui/material/Alert';
import { createContext, useContext } from 'react';

/** Spec §9: the snackbar's default lifetime and the error toast some screens use. */
export const SNACKBAR_DURATION_MS = 4000;
export const ERROR_TOAST_DURATION_MS = 5000;

export type SnackbarSeverity = AlertColor;

/** A button in the message; clicking it closes the message, then runs `onClick`. */
export interface SnackbarAction {
  label: string;
  onClick: () => void;
}

export interface SnackbarOptions {
  /**
   * Milliseconds before it hides; null keeps it until closed. A message kept until closed is
   * never lost: a newer message shows in front of it, and it comes back when that one closes.
   */
  autoHideDuration?: number | null;
  action?: SnackbarAction;
  /**
   * Names what the message is about: a new message with the same key replaces it, shown or
   * waiting, so the same news never queues up twice.
   */
  key?: string;
}

export interface SnackbarApi {
  show: (message: string, severity?: SnackbarSeverity, options?: SnackbarOptions) => void;
}

export const SnackbarContext = createContext<SnackbarApi | null>(null);

export function useSnackbar(): SnackbarApi {
  const value = useContext(SnackbarContext);
  if (value === null) throw new Error('useSnackbar must be used inside <SnackbarProvider>');
  return value;
}
