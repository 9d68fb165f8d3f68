import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  parseCollectionFilters,
  writeCollectionFilters,
  type CollectionFilters,
} from '../../../lib/collections/collection-filters';

/**
 * The collections screen's filters live in the address: a reload keeps them, Back undoes the last
 * change and a copied link shows the same list.
 */
export function useCollectionFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseCollectionFilters(params), [params]);
  const setFilters = useCallback(
    (next: CollectionFilters) => setParams((current) => writeCollectionFilters(current, next)),
    [setParams],
  );
  return { filters, setFilters };
}
