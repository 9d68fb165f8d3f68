/** How to answer a Range header for an object of a known size (RFC 9110 §14). */
export type RangeDecision =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const FULL: RangeDecision = { kind: 'full' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };

/**
 * A header we cannot or choose not to honour (malformed, another unit, several ranges) yields
 * the whole body, which RFC 9110 allows; only a well-formed single range that misses the object
 * is unsatisfiable.
 */
export function parseRangeHeader(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return FULL;
  const match = /^bytes=(.*)$/i.exec(header.trim());
  if (!match) return FULL;
  const specs = (match[1] ?? '')
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length !== 1) return FULL;

  const parts = /^(\d*)-(\d*)$/.exec(specs[0] ?? '');
  if (!parts) return FULL;
  const [, first = '', last = ''] = parts;
  if (first === '' && last === '') return FULL;

  if (first === '') {
    const suffixLength = Number(last);
    if (suffixLength === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'partial', start: Math.max(0, size - suffixLength), end: size - 1 };
  }

  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return FULL;
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/**
 * RFC 6266: a quoted ASCII `filename` for old clients plus `filename*` (RFC 8187) carrying the
 * exact UTF-8 name, which every current browser prefers.
 */
export function contentDisposition(type: 'attachment' | 'inline', fileName?: string): string {
  if (fileName === undefined || fileName === '') return type;
  const wellFormed = replaceLoneSurrogates(fileName);
  const fallback = asciiFallback(wellFormed);
  if (fallback === wellFormed) return `${type}; filename="${fallback}"`;
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(wellFormed)}`;
}

function asciiFallback(name: string): string {
  return (
    name
      // Keeps "Città.pdf" readable as "Citta.pdf" rather than "Citt_.pdf".
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      // Quotes and backslashes would need escaping that clients parse inconsistently; `%` is
      // percent-decoded by some of them; slashes could suggest a path.
      .replace(/[^\x20-\x7e]|["\\%/]/gu, '_')
  );
}

function encodeRfc8187(name: string): string {
  // encodeURIComponent leaves ' ( ) * alone, but they are not attr-chars in RFC 8187.
  return encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** encodeURIComponent throws on a lone surrogate, which a client-supplied name may contain. */
function replaceLoneSurrogates(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

/**
 * How a download presents itself, whichever driver serves it: a content type browsers cannot
 * misread, and inline only for types that cannot run script.
 */
export function downloadRepresentation(opts: {
  contentType?: string;
  fileName?: string;
  disposition?: 'attachment' | 'inline';
}): { contentType: string; contentDisposition: string } {
  const contentType = safeContentType(opts.contentType);
  const disposition =
    opts.disposition === 'inline' && isSafeInline(contentType) ? 'inline' : 'attachment';
  return { contentType, contentDisposition: contentDisposition(disposition, opts.fileName) };
}

const SAFE_INLINE_TYPES = new Set(['application/pdf', 'text/plain']);

/**
 * Stored content types come from uploaders. Rendering HTML, SVG or XML inline on the API's
 * origin would run an uploader's script in a team member's session, so only passive media is
 * shown inline; everything else downloads.
 */
export function isSafeInline(contentType: string): boolean {
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mediaType === 'image/svg+xml') return false;
  return (
    SAFE_INLINE_TYPES.has(mediaType) ||
    mediaType.startsWith('image/') ||
    mediaType.startsWith('video/') ||
    mediaType.startsWith('audio/')
  );
}

const CONTENT_TYPE =
  /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\\]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** A header value Node would refuse (control characters) or a browser would misread falls back. */
export function safeContentType(contentType: string | undefined): string {
  if (
    contentType !== undefined &&
    contentType.length <= 255 &&
    !hasControlCharacter(contentType) &&
    CONTENT_TYPE.test(contentType)
  ) {
    return contentType;
  }
  return 'application/octet-stream';
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
