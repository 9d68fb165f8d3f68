/**
 * Entry names and compression choices for collection downloads. Names in a zip are paths that
 * every extractor (Info-ZIP, Windows Explorer, macOS Archive Utility, 7-Zip) turns into files:
 * here they lose whatever could escape the target folder, hide the real extension, be refused
 * by Windows or overwrite another entry on a case-insensitive file system.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Control characters (C0, DEL, C1), bidi embeddings, overrides, isolates and marks (which can make
 * `exe.txt` read as `txt.exe`), zero-width characters and line/paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\u061C\u200B-\u200F\u202A-\u202E\u2028\u2029\u2060\u2066-\u2069\uFEFF]/gu;

/** `C:\…` or `C:/…`: a Windows drive and its root (a colon elsewhere becomes `_`, see below). */
const DRIVE_PREFIX = /^\s*[A-Za-z]:[\\/]+/;

/** Characters Windows refuses in a file name (`\` and `/` are handled as paths). */
const WINDOWS_INVALID = /[<>:"|?*]/g;

/** Whitespace and dots that Windows drops from the end of a name; also `.` and `..` whole. */
const TRAILING_DOTS_AND_SPACES = /[\s.]+$/u;

/**
 * Device names Windows reserves, with any extension (`CON.txt`, `nul.tar.gz`), even after spaces
 * (`AUX .txt`). `_` is put after the device name.
 */
const WINDOWS_RESERVED =
  /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$)(?= *\.| *$)/iu;

/** Most UTF-8 bytes of one path segment (the limit of ext4, APFS, NTFS in UTF-16 units is 255 too). */
const SEGMENT_MAX_BYTES = 255;

/** An extension longer than this (or with spaces) is part of the name, not a type. */
const MAX_EXTENSION_LENGTH = 16;

/** A name with nothing left becomes this. */
const FALLBACK_NAME = 'file';

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

/** `{ stem, extension }` with the extension's dot, when the name has a plausible extension. */
function splitExtension(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { stem: name, extension: '' };
  const extension = name.slice(dot);
  if (/\s/u.test(extension) || Array.from(extension).length - 1 > MAX_EXTENSION_LENGTH)
    return { stem: name, extension: '' };
  return { stem: name.slice(0, dot), extension };
}

/** The stem's longest code-point prefix of at most `maxBytes` UTF-8 bytes. */
function cutToBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += utf8Length(char);
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * `stem + suffix + extension`, the stem shortened so that the segment stays within
 * SEGMENT_MAX_BYTES; never ends with a dot or a space.
 */
function withSuffix(segment: string, suffix: string): string {
  const { stem, extension } = splitExtension(segment);
  const whole = `${stem}${suffix}${extension}`;
  if (utf8Length(whole) <= SEGMENT_MAX_BYTES) return whole;
  const room = SEGMENT_MAX_BYTES - utf8Length(suffix) - utf8Length(extension);
  const shortStem = cutToBytes(stem, room).replace(TRAILING_DOTS_AND_SPACES, '');
  const shortened = `${shortStem}${suffix}${extension}`;
  return shortened.replace(TRAILING_DOTS_AND_SPACES, '');
}

function safeSegment(raw: string): string {
  const trimmed = raw.replace(WINDOWS_INVALID, '_').trim().replace(TRAILING_DOTS_AND_SPACES, '');
  if (trimmed === '') return '';
  return withSuffix(trimmed.replace(WINDOWS_RESERVED, '$1_'), '');
}

function cleanText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(INVISIBLE, '').normalize('NFC');
}

/** The safe relative path of one name: segments joined by `/`, `file` when nothing is left. */
function safePath(name: string): string {
  const segments = cleanText(name)
    .replace(DRIVE_PREFIX, '')
    .replace(/\\/g, '_')
    .split('/')
    .map(safeSegment)
    .filter((segment) => segment !== '');
  return segments.length > 0 ? segments.join('/') : FALLBACK_NAME;
}

/** How case-insensitive file systems compare names (full case mapping both ways: `ß` ~ `SS`). */
function collisionKey(path: string): string {
  return path.toUpperCase().toLowerCase();
}

/** Makes each name safe as a zip entry and unique in the archive: no absolute paths, no drive letters, no `..` or `.` segments, no backslashes (turned into `_`), no control or bidi-override characters, no empty segments, each segment trimmed and at most 255 UTF-8 bytes keeping the extension, Windows-reserved names (CON, NUL, COM1…) and trailing dots/spaces avoided. Duplicates (compared case-insensitively after Unicode NFC, as on macOS and Windows) become `photo (2).jpg`, `photo (3).jpg` — keeping the extension — and never collide with another given name. An optional `folder` (e.g. the collection's name, made safe the same way) is put before every name. Order preserved.
 *
 * Also: characters Windows refuses (`< > : " | ? *`) become `_`; names come out in NFC; a file
 * whose path is also a folder of another name (`a` and `a/b.jpg`) is renamed like a duplicate;
 * the folder is one segment (a `/` in it becomes `_`) and is left out when nothing of it is left.
 */
export function safeEntryNames(names: readonly string[], folder?: string): string[] {
  const paths = names.map(safePath);
  const givenKeys = new Set(paths.map(collisionKey));
  const folderKeys = new Set<string>();
  for (const path of paths) {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1))
      folderKeys.add(collisionKey(path.slice(0, slash)));
  }
  const prefixSegment =
    folder === undefined ? '' : safeSegment(cleanText(folder).replace(/[\\/]/g, '_'));
  const prefix = prefixSegment === '' ? '' : `${prefixSegment}/`;

  const usedKeys = new Set<string>();
  /** Per original key, the suffix number to try next (keeps many duplicates linear). */
  const nextNumber = new Map<string, number>();
  return paths.map((path) => {
    const originalKey = collisionKey(path);
    let name = path;
    let key = originalKey;
    if (usedKeys.has(key) || folderKeys.has(key)) {
      const slash = path.lastIndexOf('/');
      const directory = path.slice(0, slash + 1);
      const base = path.slice(slash + 1);
      let n = nextNumber.get(originalKey) ?? 2;
      for (; ; n++) {
        name = directory + withSuffix(base, ` (${n})`);
        key = collisionKey(name);
        if (!usedKeys.has(key) && !givenKeys.has(key) && !folderKeys.has(key)) break;
      }
      nextNumber.set(originalKey, n + 1);
    }
    usedKeys.add(key);
    return prefix + name;
  });
}

/** Compressible types that neither `text/*` nor the `+xml` / `+json` suffixes cover. */
const COMPRESSIBLE_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/rtf',
  'application/x-rtf',
  'application/csv',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/x-ndjson',
  'application/yaml',
  'application/x-yaml',
  'application/sql',
  'application/x-tar',
  'application/postscript',
  'image/bmp',
  'image/x-bmp',
  'image/x-ms-bmp',
  'image/tiff',
  'audio/wav',
  'audio/wave',
  'audio/x-wav',
  'audio/vnd.wave',
]);

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** Whether deflate pays for this content type: text/*, JSON, XML (+xml, +json), SVG, BMP, TIFF, WAV, RTF, CSV, old Office binaries (application/msword, vnd.ms-excel, vnd.ms-powerpoint) — yes; JPEG, PNG, GIF, WebP, HEIC/AVIF, video, audio other than WAV, PDF, zip/7z/rar/gzip, OOXML/ODF (already zip) — no; unknown types no.
 *
 * Also yes: JavaScript, YAML, NDJSON, SQL, PostScript and uncompressed tar. Parameters
 * (`; charset=utf-8`) and case are ignored.
 */
export function shouldCompress(contentType: string): boolean {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) return false;
  if (type.startsWith('text/')) return true;
  if (type.endsWith('+xml') || type.endsWith('+json')) return true;
  return COMPRESSIBLE_TYPES.has(type);
}
