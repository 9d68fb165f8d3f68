import type { FileItem, MemberRef } from '@raccolta/contracts';
import type { FileRow } from './files.repository.js';
import { withoutInvisible } from './file-name.js';

export interface FileExtras {
  uploader: MemberRef;
  readAt: number | null;
  thumbnailUrl: string | null;
  previewUrl: string | null;
}

export function presentFile(row: FileRow, extras: FileExtras): FileItem {
  return {
    fileId: row.id,
    teamId: row.team_id,
    collectionId: row.collection_id,
    name: row.name,
    originalName: withoutInvisible(row.original_name),
    contentType: row.content_type,
    size: row.size,
    sha256: row.sha256,
    thumbnailUrl: extras.thumbnailUrl,
    previewUrl: extras.previewUrl,
    renditionStatus: row.rendition_status,
    uploadedBy: row.uploaded_by,
    late: row.late === 1,
    uploader: extras.uploader,
    guest:
      row.link_id === null
        ? null
        : { linkId: row.link_id, name: row.guest_name, email: row.guest_email },
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    readAt: extras.readAt === null ? null : new Date(extras.readAt).toISOString(),
    damaged: typeof row.damaged_at === 'number',
  };
}
