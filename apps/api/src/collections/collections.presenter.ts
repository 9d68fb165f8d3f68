import type { Collection, MemberRef } from '@raccolta/contracts';
import type { CollectionRow } from '../db/rows.js';
import { presentDeadline } from './deadlines.js';

export interface CollectionExtras {
  tags: string[];
  readAt: number | null;
  /** The team member behind a user id, from one memberRefs query for the whole page. */
  member: (teamId: string, userId: string) => MemberRef;
}

/** A collection as the API shows it (spec §3): the owner and tagged members with their names. */
export function presentCollection(row: CollectionRow, extras: CollectionExtras): Collection {
  return {
    teamId: row.team_id,
    collectionId: row.id,
    name: row.name,
    description: row.description,
    mode: row.mode,
    status: row.status,
    tags: extras.tags,
    taggedMembers: extras.tags.map((userId) => extras.member(row.team_id, userId)),
    createdBy: row.created_by,
    owner: extras.member(row.team_id, row.created_by),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    updatedBy: row.updated_by,
    readAt: extras.readAt === null ? null : new Date(extras.readAt).toISOString(),
    filesCount: row.files_count,
    deadline: presentDeadline(row),
    allowLateUploads: row.allow_late_uploads === 1,
  };
}
