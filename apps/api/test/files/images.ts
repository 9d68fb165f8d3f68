import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Test images: real ones made with sharp, and hostile ones made by hand. */

/** A real JPEG with some detail, so its renditions are real work. */
export async function makeJpeg(width: number, height: number): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = (x ^ y) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 80 }).toBuffer();
}

export function makePng(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#c33' } })
    .png()
    .toBuffer();
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb's header: a valid PNG declaring width × height pixels (50,000² is 2.5
 * gigapixels, 7.5 GB decoded) whose only IDAT holds a few bytes. Every CRC is right, so only the
 * pixel limit can stop a decoder.
 */
export function bombPng(width = 50_000, height = 50_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Starts like a JPEG (so it is sniffed as one), then nothing a decoder can use. */
export function garbageJpeg(): Buffer {
  const noise = Buffer.alloc(2048);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) & 0xff;
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0'),
    noise,
  ]);
}

export const SVG_WITH_SCRIPT =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>\n';

export const HTML_PAGE =
  '<!DOCTYPE html><html><body><script>fetch("/api/users/@me")</script></body></html>\n';

/** The HTML a polyglot carries: a browser opening the file as a page runs it. */
export const POLYGLOT_SCRIPT = '<html><body><script>document.title="ran"</script></body></html>';

/**
 * A JPEG/HTML polyglot: a real JPEG whose comment segment (COM, right after SOI) holds a page
 * with a script. Every JPEG decoder shows the picture; a browser opening the same bytes as
 * `.html` skips the binary prefix and runs the script.
 */
export async function makeJpegHtmlPolyglot(): Promise<Buffer> {
  const jpeg = await makeJpeg(32, 32);
  const comment = Buffer.from(POLYGLOT_SCRIPT, 'latin1');
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xfffe, 0);
  header.writeUInt16BE(comment.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, comment, jpeg.subarray(2)]);
}
