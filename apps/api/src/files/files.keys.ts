import { encryptedKey, isEncryptedKey } from '../storage/encryption.js';
import type { Plan } from '../db/database.js';

/**
 * Storage keys of a file's objects: ids only. The client's file name never goes into a key, so no
 * name can climb out of the folder, collide with another, or need escaping on any driver.
 */

export interface FileKeyParts {
  teamId: string;
  collectionId: string;
  fileId: string;
  /** Stored encrypted (the premium plan): every key ends with `.enc`. */
  encrypted?: boolean;
}

export interface FileKeys {
  original: string;
  thumbnail: string;
  preview: string;
}

export function fileKeys({ teamId, collectionId, fileId, encrypted }: FileKeyParts): FileKeys {
  const folder = `teams/${teamId}/collections/${collectionId}/${fileId}`;
  const key = (name: string) =>
    encrypted ? encryptedKey(`${folder}/${name}`) : `${folder}/${name}`;
  return {
    original: key('original'),
    thumbnail: key('thumbnail.webp'),
    preview: key('preview.webp'),
  };
}

/** The keys of a stored file row: its renditions are encrypted when its original is. */
export function keysOfRow(row: {
  team_id: string;
  collection_id: string;
  id: string;
  storage_key: string;
}): FileKeys {
  return fileKeys({
    teamId: row.team_id,
    collectionId: row.collection_id,
    fileId: row.id,
    encrypted: isEncryptedKey(row.storage_key),
  });
}

/** Whether a team's new files are stored encrypted (spec §1: the premium plan only). */
export function encryptsFiles(team: { plan: Plan }): boolean {
  return team.plan === 'premium';
}
