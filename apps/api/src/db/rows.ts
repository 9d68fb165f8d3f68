import type { Selectable } from 'kysely';
import type { CollectionsTable, TeamMembersTable, TeamsTable } from './database.js';

/** Rows of the tables several features read: a team, a membership, a collection. */
export type TeamRow = Selectable<TeamsTable>;
export type MemberRow = Selectable<TeamMembersTable>;
export type CollectionRow = Selectable<CollectionsTable>;
