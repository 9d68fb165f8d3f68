/** What the rest of the app uses of the collections feature. */
export { CollectionsView } from './components/collections-view';
export { CreateCollectionDialog } from './components/create-collection-dialog';
