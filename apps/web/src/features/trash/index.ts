/** What the rest of the app uses of the trash feature. */
export { TrashPage } from './components/trash-page';
