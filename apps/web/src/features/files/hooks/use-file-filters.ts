import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readFileFilters, writeFileFilters, type FileFilters } from '../utils/file-filters';

export interface FileFiltersState {
  filters: FileFilters;
  /** Replaces some filters; the history entry is replaced, so Back leaves the screen. */
  update: (changes: Partial<FileFilters>) => void;
  clear: () => void;
}

/** The files screen's filters, kept in the address so a filtered list can be shared or reloaded. */
export function useFileFilters(): FileFiltersState {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFileFilters(params), [params]);

  const update = useCallback(
    (changes: Partial<FileFilters>) =>
      setParams(
        (current) => writeFileFilters(current, { ...readFileFilters(current), ...changes }),
        {
          replace: true,
        },
      ),
    [setParams],
  );
  const clear = useCallback(
    () =>
      setParams((current) => writeFileFilters(current, { view: 'all', sort: 'desc' }), {
        replace: true,
      }),
    [setParams],
  );
  return { filters, update, clear };
}
