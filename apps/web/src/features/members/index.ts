/** What the rest of the app uses of the members feature. */
export { MembersPanel } from './components/members-panel';
