export { preloadSnackbarView, SnackbarProvider } from './snackbar-provider';
export {
  ERROR_TOAST_DURATION_MS,
  SNACKBAR_DURATION_MS,
  useSnackbar,
  type SnackbarAction,
  type SnackbarApi,
  type SnackbarOptions,
  type SnackbarSeverity,
} from './snackbar-context';
export { useErrorToast } from './use-error-toast';
export { useOutcomeToast } from './use-outcome-toast';
