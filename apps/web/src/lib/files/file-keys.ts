import type { SortDirection } from '@raccolta/contracts';

/** What a file list is asked for: the API's filters, with the Mine view already made a creator. */
export interface FileListFilters {
  creator?: string;
  /** Sent through this upload link (issue #36). */
  link?: string;
  /** Sent by a guest of this name. */
  guest?: string;
  sort: SortDirection;
  from?: number;
  to?: number;
}

/**
 * Query keys of the files feature, under the team's id and the collection's, so a change in one
 * collection touches only its own lists.
 */
export const fileKeys = {
  all: (teamId: string) => ['files', teamId] as const,
  collection: (teamId: string, collectionId: string) =>
    [...fileKeys.all(teamId), collectionId] as const,
  lists: (teamId: string, collectionId: string) =>
    [...fileKeys.collection(teamId, collectionId), 'list'] as const,
  list: (teamId: string, collectionId: string, filters: FileListFilters) =>
    [...fileKeys.lists(teamId, collectionId), filters] as const,
  detail: (teamId: string, collectionId: string, fileId: string) =>
    [...fileKeys.collection(teamId, collectionId), 'detail', fileId] as const,
};

/**
 * Collections are cached under ['collections', teamId, …] (the collections screen's lists and the
 * files screen's copy of one collection), so invalidating the prefix refreshes every list that
 * shows a collection's updatedAt and file count.
 */
export const collectionKeys = {
  all: (teamId: string) => ['collections', teamId] as const,
  detail: (teamId: string, collectionId: string) =>
    [...collectionKeys.all(teamId), 'detail', collectionId] as const,
};

export function collectionPath(teamId: string, collectionId: string): string {
  return `/teams/${encodeURIComponent(teamId)}/collections/${encodeURIComponent(collectionId)}`;
}

export function filesPath(teamId: string, collectionId: string, fileId?: string): string {
  const base = `${collectionPath(teamId, collectionId)}/files`;
  return fileId === undefined ? base : `${base}/${encodeURIComponent(fileId)}`;
}
