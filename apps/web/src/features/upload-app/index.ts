/** What the rest of the app uses of the upload app feature. */
export { UploadCollectionPage } from './components/upload-collection-page';
export { UploadGuestRoute, UploadLoginRoute } from './components/upload-route-guards';
export { UploadTeamsPage } from './components/upload-teams-page';
export { UploadQueuesProvider } from './hooks/upload-queues';
