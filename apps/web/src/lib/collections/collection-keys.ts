import type { Collection, CollectionListResponse } from '@raccolta/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { CollectionFilters } from './collection-filters';

/** The filters of one list call; Mine also needs whose collections they are. */
export type CollectionListScope = CollectionFilters & { selfId: string | null };

/** Query keys of a team's collections, under the team's id so one team's changes touch only its own. */
export const collectionKeys = {
  all: (teamId: string) => ['collections', teamId] as const,
  /** Every list: All, Mine and Shared, with any filter. */
  lists: (teamId: string) => [...collectionKeys.all(teamId), 'list'] as const,
  list: (teamId: string, scope: CollectionListScope) =>
    [...collectionKeys.lists(teamId), scope] as const,
};

export function collectionsPath(teamId: string, collectionId?: string): string {
  const base = `/teams/${encodeURIComponent(teamId)}/collections`;
  return collectionId === undefined ? base : `${base}/${encodeURIComponent(collectionId)}`;
}

/** The files screen of a collection, under the team reference the dashboard was opened by. */
export function collectionPagePath(teamRef: string, collectionId: string): string {
  return `/teams/${encodeURIComponent(teamRef)}/collections/${encodeURIComponent(collectionId)}`;
}

/**
 * After a change to one collection: the answer replaces it in every loaded list at once, then the
 * lists are fetched again, since a rename or new tags can move it across pages and filters.
 */
export function storeCollection(queryClient: QueryClient, collection: Collection): void {
  queryClient.setQueriesData<InfiniteData<CollectionListResponse>>(
    { queryKey: collectionKeys.lists(collection.teamId) },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          collections: page.collections.map((c) =>
            c.collectionId === collection.collectionId ? collection : c,
          ),
        })),
      },
  );
  void queryClient.invalidateQueries({ queryKey: collectionKeys.lists(collection.teamId) });
}
