import type { GuestFile, UploadLink, UploadLinkInfo } from '@raccolta/contracts';
import { GUEST_DELETE_WINDOW_MS } from '@raccolta/contracts';
import type { CollectionRow, TeamRow } from '../db/rows.js';
import type { GuestFileRow, UploadLinkRow } from './links.repository.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function acceptedTypesOf(link: UploadLinkRow): string[] {
  return JSON.parse(link.accepted_types) as string[];
}

/** The guest page of a link in the upload app. */
export function guestPageUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/upload/l/${token}`;
}

export function presentLink(
  link: UploadLinkRow,
  extras: { url: string; files: number; bytes: number },
): UploadLink {
  return {
    linkId: link.id,
    collectionId: link.collection_id,
    label: link.label,
    hasPassword: link.password_hash !== null,
    expiresAt: link.expires_at === null ? null : iso(link.expires_at),
    maxFiles: link.max_files,
    maxBytes: link.max_bytes,
    acceptedTypes: acceptedTypesOf(link),
    requireName: link.require_name === 1,
    requireEmail: link.require_email === 1,
    enabled: link.enabled === 1,
    fileCount: extras.files,
    byteCount: extras.bytes,
    createdAt: iso(link.created_at),
    url: extras.url,
  };
}

/** What the guest page shows: the collection and the team, never its members or files. */
export function presentLinkInfo(
  link: UploadLinkRow,
  scope: { team: TeamRow; collection: CollectionRow },
  maxFileBytes: number,
): UploadLinkInfo {
  return {
    collectionName: scope.collection.name,
    collectionDescription: scope.collection.description,
    teamName: scope.team.name,
    teamLogoUrl: scope.team.logo_url,
    acceptedTypes: acceptedTypesOf(link),
    requireName: link.require_name === 1,
    requireEmail: link.require_email === 1,
    requirePassword: link.password_hash !== null,
    maxFileBytes,
  };
}

export function presentGuestFile(row: GuestFileRow): GuestFile {
  return {
    fileId: row.id,
    name: row.name,
    contentType: row.content_type,
    size: row.size,
    createdAt: iso(row.created_at),
    deletableUntil: iso(row.created_at + GUEST_DELETE_WINDOW_MS),
  };
}
