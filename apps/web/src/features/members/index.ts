/** What the rest of the app uses of the members feature. */
export { useMemberQuery } from './api/get-member';
export { MembersPanel } from './components/members-panel';
export { MEMBER_PREFIX_MAX_LENGTH, useMembersQuery } from './api/list-members';
