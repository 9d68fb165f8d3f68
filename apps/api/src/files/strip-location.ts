import { crc32 } from 'node:zlib';

/**
 * Removes where a photo was taken from its bytes, without touching a pixel: the GPS IFD of its
 * EXIF (in JPEG APP1, PNG eXIf, WebP EXIF, the Exif item of HEIC/HEIF/AVIF, TIFF itself) and the
 * GPS properties of its XMP packet. sharp cannot do this: it always decodes and re-encodes the
 * image. Everything is edited in place, so the file keeps its size, every offset in it stays
 * right and no decoder sees a difference: the GPS entry leaves IFD0 (later entries move up), the
 * GPS IFD and its values are zeroed, and XMP GPS properties become spaces (still well-formed XML).
 */

/** Types whose location can be removed (sniffed types, as `sniffContentType` names them). */
export const LOCATION_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/apng',
  'image/webp',
  'image/heic',
  'image/heic-sequence',
  'image/heif',
  'image/heif-sequence',
  'image/avif',
  'image/tiff',
]);

const GPS_IFD_TAG = 0x8825;
/** Bytes of one value of each TIFF field type (1 BYTE … 13 IFD). */
const TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];

interface Tiff {
  buf: Buffer;
  start: number;
  end: number;
  little: boolean;
}

function u16(t: Tiff, at: number): number {
  return t.little ? t.buf.readUInt16LE(at) : t.buf.readUInt16BE(at);
}
function u32(t: Tiff, at: number): number {
  return t.little ? t.buf.readUInt32LE(at) : t.buf.readUInt32BE(at);
}

/** Zeroes [from, from + length) when it lies inside the TIFF block. */
function zero(t: Tiff, from: number, length: number): void {
  if (from < t.start || length <= 0 || from + length > t.end) return;
  t.buf.fill(0, from, from + length);
}

function tiffAt(buf: Buffer, start: number, end: number): Tiff | null {
  if (end - start < 8) return null;
  const order = buf.toString('latin1', start, start + 2);
  if (order !== 'II' && order !== 'MM') return null;
  const t: Tiff = { buf, start, end, little: order === 'II' };
  return u16(t, start + 2) === 42 ? t : null;
}

/**
 * Removes the GPS IFD of the TIFF structure (EXIF) at buf[start, end), in place. True when there
 * was one.
 */
export function wipeGpsIfd(buf: Buffer, start: number, end: number): boolean {
  const t = tiffAt(buf, start, Math.min(end, buf.length));
  if (!t) return false;
  const ifd0 = t.start + u32(t, t.start + 4);
  if (ifd0 + 2 > t.end) return false;
  const count = u16(t, ifd0);
  const entriesEnd = ifd0 + 2 + count * 12;
  if (entriesEnd + 4 > t.end) return false;
  for (let i = 0; i < count; i++) {
    const entry = ifd0 + 2 + i * 12;
    if (u16(t, entry) !== GPS_IFD_TAG) continue;
    wipeIfd(t, t.start + u32(t, entry + 8));
    // The later entries and the next-IFD offset move up over it; the freed slot is zeroed.
    t.buf.copy(t.buf, entry, entry + 12, entriesEnd + 4);
    zero(t, entriesEnd - 8, 12);
    if (t.little) t.buf.writeUInt16LE(count - 1, ifd0);
    else t.buf.writeUInt16BE(count - 1, ifd0);
    return true;
  }
  return false;
}

/** Zeroes an IFD's values stored outside it, then the IFD itself. */
function wipeIfd(t: Tiff, ifd: number): void {
  if (ifd + 2 > t.end) return;
  const count = u16(t, ifd);
  const size = 2 + count * 12 + 4;
  if (ifd + size > t.end) return;
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    const bytes = (TYPE_SIZES[u16(t, entry + 2)] ?? 0) * u32(t, entry + 4);
    if (bytes > 4) zero(t, t.start + u32(t, entry + 8), bytes);
  }
  zero(t, ifd, size);
}

/** XMP GPS properties as attributes (`exif:GPSLatitude="…"`) and as elements. */
const XMP_GPS_ATTRIBUTE = /\s(?:exif|exifEX):GPS[A-Za-z]*\s*=\s*(?:"[^"]*"|'[^']*')/g;
const XMP_GPS_ELEMENT = /<((?:exif|exifEX):GPS[A-Za-z]*)\b[^>]*?(?:\/>|>[\s\S]*?<\/\1\s*>)/g;

/**
 * Blanks the GPS properties of every XMP packet in buf[start, end) with spaces, in place (XML
 * treats them as whitespace). True when there were some.
 */
function blankXmpGps(buf: Buffer, start: number, end: number): boolean {
  const text = buf.toString('latin1', start, end);
  if (!text.includes('GPS')) return false;
  let found = false;
  for (const pattern of [XMP_GPS_ELEMENT, XMP_GPS_ATTRIBUTE]) {
    for (const match of text.matchAll(pattern)) {
      buf.fill(0x20, start + match.index, start + match.index + match[0].length);
      found = true;
    }
  }
  return found;
}

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const XMP_HEADER = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');

function stripJpeg(buf: Buffer): boolean {
  let changed = false;
  let at = 2;
  while (at + 4 <= buf.length && buf[at] === 0xff) {
    const marker = buf[at + 1] ?? 0;
    // Fill bytes, and markers without a length (TEM, RSTn).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // Start of scan or end of image: no metadata after it.
    if (marker === 0xda || marker === 0xd9) break;
    const length = buf.readUInt16BE(at + 2);
    const data = at + 4;
    const end = Math.min(at + 2 + length, buf.length);
    if (marker === 0xe1) {
      if (buf.subarray(data, data + 6).equals(EXIF_HEADER)) {
        changed = wipeGpsIfd(buf, data + 6, end) || changed;
      } else if (buf.subarray(data, data + XMP_HEADER.length).equals(XMP_HEADER)) {
        changed = blankXmpGps(buf, data + XMP_HEADER.length, end) || changed;
      }
    }
    at = at + 2 + length;
  }
  return changed;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function stripPng(buf: Buffer): boolean {
  let changed = false;
  let at = PNG_SIGNATURE.length;
  while (at + 12 <= buf.length) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = at + 8;
    const end = data + length;
    if (end + 4 > buf.length) break;
    let chunkChanged = false;
    if (type === 'eXIf') {
      const tiff = buf.subarray(data, data + 6).equals(EXIF_HEADER) ? data + 6 : data;
      chunkChanged = wipeGpsIfd(buf, tiff, end);
    } else if (type === 'iTXt' && buf.toString('latin1', data, data + 17) === 'XML:com.adobe.xmp') {
      // Keyword, NUL, compression flag: only an uncompressed packet can be edited in place.
      if (buf[data + 18] === 0) chunkChanged = blankXmpGps(buf, data, end);
    }
    if (chunkChanged) {
      buf.writeUInt32BE(crc32(buf.subarray(at + 4, end)), end);
      changed = true;
    }
    if (type === 'IEND') break;
    at = end + 4;
  }
  return changed;
}

function stripWebp(buf: Buffer): boolean {
  let changed = false;
  let at = 12;
  while (at + 8 <= buf.length) {
    const type = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const data = at + 8;
    const end = Math.min(data + size, buf.length);
    if (type === 'EXIF') {
      const tiff = buf.subarray(data, data + 6).equals(EXIF_HEADER) ? data + 6 : data;
      changed = wipeGpsIfd(buf, tiff, end) || changed;
    } else if (type === 'XMP ') {
      changed = blankXmpGps(buf, data, end) || changed;
    }
    at = data + size + (size % 2);
  }
  return changed;
}

/**
 * HEIC, HEIF, AVIF (and anything else): every `Exif\0\0` followed by a TIFF header (how the Exif
 * item of an ISOBMFF file starts, wherever its `iloc` puts it) and every XMP packet.
 */
function stripAnywhere(buf: Buffer): boolean {
  let changed = false;
  for (let at = buf.indexOf(EXIF_HEADER); at !== -1; at = buf.indexOf(EXIF_HEADER, at + 1)) {
    if (tiffAt(buf, at + 6, buf.length)) changed = wipeGpsIfd(buf, at + 6, buf.length) || changed;
  }
  const open = Buffer.from('<x:xmpmeta', 'latin1');
  const close = Buffer.from('</x:xmpmeta>', 'latin1');
  for (let at = buf.indexOf(open); at !== -1; at = buf.indexOf(open, at + 1)) {
    const end = buf.indexOf(close, at);
    if (end === -1) break;
    changed = blankXmpGps(buf, at, end + close.length) || changed;
  }
  return changed;
}

/**
 * The bytes of an image of `contentType` without its location, or null when it had none (or the
 * type carries none we know of). `bytes` is left as it is.
 */
export function stripLocation(bytes: Buffer, contentType: string): Buffer | null {
  if (!LOCATION_TYPES.has(contentType)) return null;
  const buf = Buffer.from(bytes);
  let changed: boolean;
  if (contentType === 'image/jpeg') changed = stripJpeg(buf);
  else if (contentType === 'image/png' || contentType === 'image/apng') changed = stripPng(buf);
  else if (contentType === 'image/webp') changed = stripWebp(buf);
  else if (contentType === 'image/tiff') changed = wipeGpsIfd(buf, 0, buf.length);
  else changed = stripAnywhere(buf);
  return changed ? buf : null;
}
