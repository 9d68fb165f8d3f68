import type { Collection } from '@raccolta/contracts';

/**
 * The rows of the loaded pages, each collection once: one changed between two page loads moves
 * in the order (the list is by updated date), so a later page can bring it again.
 */
export function distinctCollections(pages: readonly { collections: Collection[] }[]): Collection[] {
  const seen = new Set<string>();
  const rows: Collection[] = [];
  for (const collection of pages.flatMap((page) => page.collections)) {
    if (seen.has(collection.collectionId)) continue;
    seen.add(collection.collectionId);
    rows.push(collection);
  }
  return rows;
}
