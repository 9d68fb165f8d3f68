import { preloadSnackbarView } from '../components/snackbar';

// The message bar is a lazy chunk in the app; the tests find it already loaded, as after its first
// message, so a message shows in the same render (snackbar-provider.test.tsx covers the first load).
await preloadSnackbarView();
