import type { AlertColor } from '@mui/material/Alert';
import { createContext, useContext } from 'react';

/** Spec §9: the snackbar's default lifetime and the error toast some screens use. */
export const SNACKBAR_DURATION_MS = 4000;
export const ERROR_TOAST_DURATION_MS = 5000;

export type SnackbarSeverity = AlertColor;

export interface SnackbarOptions {
  /** Milliseconds before it hides; null keeps it until closed. */
  autoHideDuration?: number | null;
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
