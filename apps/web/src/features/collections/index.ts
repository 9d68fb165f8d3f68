/** What the rest of the app uses of the collections feature. */
export { collectionPagePath } from './api/collection-keys';
export { CollectionsView } from './components/collections-view';
export { useCollectionsQuery } from './api/list-collections';
export { CreateCollectionDialog } from './components/create-collection-dialog';
export { DEFAULT_COLLECTION_FILTERS } from './utils/collection-filters';
export { withCreatorFilter } from './utils/collection-filters';
