/**
 * Storage keys of a file's objects: ids only. The client's file name never goes into a key, so no
 * name can climb out of the folder, collide with another, or need escaping on any driver.
 */

export interface FileKeyParts {
  teamId: string;
  collectionId: string;
  fileId: string;
}

export interface FileKeys {
  original: string;
  thumbnail: string;
  preview: string;
}

export function fileKeys({ teamId, collectionId, fileId }: FileKeyParts): FileKeys {
  const folder = `teams/${teamId}/collections/${collectionId}/${fileId}`;
  return {
    original: `${folder}/original`,
    thumbnail: `${folder}/thumbnail.webp`,
    preview: `${folder}/preview.webp`,
  };
}

/** The keys of a stored file row. */
export function keysOfRow(row: { team_id: string; collection_id: string; id: string }): FileKeys {
  return fileKeys({ teamId: row.team_id, collectionId: row.collection_id, fileId: row.id });
}
