import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * The API serves index.html under a strict CSP with a per-request nonce (Vite writes it into
 * `<meta property="csp-nonce">`); Emotion's style tags must carry it or the browser drops them.
 * Browsers hide the nonce attribute after parsing, so only the `nonce` property has the value.
 */
export function readCspNonce(doc: Document = document): string | undefined {
  const nonce = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
  return nonce === undefined || nonce === '' ? undefined : nonce;
}

export function createEmotionCache(nonce = readCspNonce()): EmotionCache {
  return createCache({ key: 'css', ...(nonce === undefined ? {} : { nonce }) });
}
