import { loadAllTexts } from '../i18n/all-texts';
import { loadQueryClient } from './query-layer';

/**
 * Wraps a lazy import of a page (or of a part shown only to signed-in people) so it resolves once
 * what every such part needs has arrived too: the query client and the texts beyond the first
 * page's. The landing page needs neither.
 */
export function withPageNeeds<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadQueryClient(), loadAllTexts()]).then(([loaded]) => loaded);
}
