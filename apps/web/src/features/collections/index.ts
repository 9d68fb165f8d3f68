/** What the rest of the app uses of the collections feature. */
export { collectionPagePath } from './api/collection-keys';
export { CollectionsView } from './components/collections-view';
