import type { Selectable } from 'kysely';
import type {
  CollectionsTable,
  DownloadPartsTable,
  DownloadsTable,
  TeamMembersTable,
  TeamsTable,
  UploadsTable,
} from './database.js';

/**
 * Rows of the tables several features read: a team, a membership, a collection, and the uploads
 * and downloads the access module loads for their owners.
 */
export type TeamRow = Selectable<TeamsTable>;
export type MemberRow = Selectable<TeamMembersTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type UploadRow = Selectable<UploadsTable>;
export type DownloadRow = Selectable<DownloadsTable>;
export type DownloadPartRow = Selectable<DownloadPartsTable>;
