import { FILE_NAME_MAX_LENGTH } from '@raccolta/contracts';

/**
 * Names of uploaded files. The client's name is shown, never trusted: it never reaches a storage
 * key, and the name the app shows and offers on download is made safe here.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Control characters (C0, DEL, C1), bidi embeddings, overrides, isolates and marks (which can make
 * `exe.txt` read as `txt.exe`), zero-width characters and line/paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\u061C\u200B-\u200F\u202A-\u202E\u2028\u2029\u2060\u2066-\u2069\uFEFF]/gu;

/** An extension longer than this is part of the name, not a type: it is not kept when shortening. */
const MAX_EXTENSION_LENGTH = 16;

/** Names whose every character was dropped get this one, plus the sniffed extension. */
const FALLBACK_NAME = 'file';

function codePoints(text: string): string[] {
  return Array.from(text);
}

/** encodeURIComponent and some databases choke on unpaired surrogates; U+FFFD shows the loss. */
export function replaceLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Whether a name holds a character `withoutInvisible` removes (cheaper than replacing). */
const HAS_INVISIBLE = new RegExp(INVISIBLE.source, 'u');

/**
 * Text without control, bidi and zero-width characters (INVISIBLE): what `originalName` is made
 * of on the way in and on the way out (rows stored before it was cleaned on the way in).
 */
export function withoutInvisible(text: string): string {
  return HAS_INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
}

/**
 * The name as the client sent it, paths included, for display: well-formed, without control,
 * bidi and zero-width characters (a NUL, CR, LF or U+202E never reaches a row or an answer), at
 * most `maxLength` code points (FILE_NAME_MAX_LENGTH unless said).
 */
export function cleanOriginalName(
  clientName: string | undefined,
  maxLength = FILE_NAME_MAX_LENGTH,
): string {
  return codePoints(withoutInvisible(replaceLoneSurrogates(clientName ?? '')))
    .slice(0, maxLength)
    .join('');
}

/** `.ext` of a name (without the dot), when it has a plausible one. */
function splitExtension(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { stem: name, extension: '' };
  const extension = name.slice(dot + 1);
  if (codePoints(extension).length > MAX_EXTENSION_LENGTH) return { stem: name, extension: '' };
  return { stem: name.slice(0, dot), extension };
}

function shorten(name: string, max: number): string {
  if (codePoints(name).length <= max) return name;
  const { stem, extension } = splitExtension(name);
  if (extension === '') return codePoints(name).slice(0, max).join('').trimEnd();
  const room = max - 1 - codePoints(extension).length;
  return `${codePoints(stem).slice(0, room).join('').trimEnd()}.${extension}`;
}

/**
 * The display name of an upload: the last path segment (either slash), without control, bidi
 * and zero-width characters, NFC, trimmed, without leading dots (no hidden files), shortened to
 * FILE_NAME_MAX_LENGTH code points keeping the extension; `file` (with the sniffed extension)
 * when nothing is left.
 */
export function safeFileName(
  clientName: string | undefined,
  sniffedExtension?: string | null,
): string {
  const lastSegment =
    replaceLoneSurrogates(clientName ?? '')
      .split(/[/\\]/)
      .pop() ?? '';
  const cleaned = lastSegment
    .replace(INVISIBLE, '')
    .normalize('NFC')
    .replace(/^[\s.]+/u, '')
    .trimEnd();
  const name = shorten(cleaned, FILE_NAME_MAX_LENGTH);
  if (name !== '') return name;
  return sniffedExtension ? `${FALLBACK_NAME}.${sniffedExtension}` : FALLBACK_NAME;
}
