/** What the rest of the app uses of the files feature. */
export { CollectionFilesPage } from './components/collection-files-page';
