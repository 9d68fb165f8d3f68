const DEFAULT_API_BASE_URL = '/api';

/** Strips trailing slashes so paths (which start with `/`) can be appended as they are. */
export function normaliseBaseUrl(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  return (trimmed === '' ? DEFAULT_API_BASE_URL : trimmed).replace(/\/+$/, '');
}

/** The API may live on its own host; the build sets VITE_API_BASE_URL then. */
export const apiBaseUrl = normaliseBaseUrl(import.meta.env.VITE_API_BASE_URL);
