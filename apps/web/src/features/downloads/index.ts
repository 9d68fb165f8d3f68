/** What the rest of the app uses of the downloads feature. */
export { DownloadsProvider } from './components/downloads-provider';
export { DownloadPage } from './components/download-page';
export { downloadPagePath } from './api/download-keys';
