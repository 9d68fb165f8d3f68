/** What the rest of the app uses of the files feature. */
export { CollectionFilesPage } from './components/collection-files-page';
export { collectionKeys as fileCollectionKeys, collectionPath, fileKeys } from './api/file-keys';
export { useCollectionQuery } from './api/get-collection';
export { getFiles } from './api/list-files';
export { useCollectionReadMutation } from './api/read-marks';
export { FileThumbnail } from './components/file-thumbnail';
export { formatFileSize } from './utils/format-file-size';
export { startBrowserDownload } from './utils/start-download';
