/** What the rest of the app uses of the upload app feature. */
export { UploadAppLayout } from './components/upload-app-layout';
export { UploadCollectionPage } from './components/upload-collection-page';
export { UploadCollectionsPage } from './components/upload-collections-page';
export { UploadGuestRoute, UploadLoginRoute } from './components/upload-route-guards';
export { UploadSignInPage } from './components/upload-sign-in-page';
export { UploadTeamsPage } from './components/upload-teams-page';
export { UploadQueuesProvider } from './hooks/upload-queues';
export { UPLOAD_APP_PATH, UPLOAD_SIGN_IN_PATH, uploadCollectionPath } from './utils/upload-paths';
