import type { FileItem, MemberRef } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import { memberRefsByTeam } from '../members/member-refs.js';
import { renditionUrl } from './rendition-links.js';
import { fileReadTimes, type FileRow } from './files.repository.js';
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
    uploader: extras.uploader,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    readAt: extras.readAt === null ? null : new Date(extras.readAt).toISOString(),
    damaged: typeof row.damaged_at === 'number',
  };
}

/**
 * Files as one user sees them: uploaders' names (one query), the user's read marks (one query)
 * and rendition links signed for this user, so a link shared with someone else is still checked
 * against the user it was made for.
 */
export async function presentFilesFor(
  ctx: AppContext,
  viewerId: string,
  rows: FileRow[],
): Promise<FileItem[]> {
  const [uploaderOf, readTimes] = await Promise.all([
    memberRefsByTeam(
      ctx.db,
      rows.map((r) => ({ teamId: r.team_id, userId: r.uploaded_by })),
    ),
    fileReadTimes(
      ctx.db,
      viewerId,
      rows.map((r) => r.id),
    ),
  ]);
  const settings = {
    apiPublicUrl: ctx.config.apiPublicUrl,
    secret: ctx.config.secret,
    ttlSeconds: ctx.config.files.renditionUrlTtlSeconds,
  };
  const now = ctx.clock();
  return rows.map((row) => {
    const ready = row.rendition_status === 'ready';
    const link = (kind: 'thumbnail' | 'preview') =>
      ready ? renditionUrl(settings, { fileId: row.id, userId: viewerId, kind }, now) : null;
    return presentFile(row, {
      uploader: uploaderOf(row.team_id, row.uploaded_by),
      readAt: readTimes.get(row.id) ?? null,
      thumbnailUrl: link('thumbnail'),
      previewUrl: link('preview'),
    });
  });
}
