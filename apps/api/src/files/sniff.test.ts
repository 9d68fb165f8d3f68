import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isTypeAllowed, sniffContentType } from './sniff.js';

const text = (s: string) => Buffer.from(s, 'utf8');

describe('sniffContentType', () => {
  it('knows images by their bytes', async () => {
    const png = await sharp({
      create: { width: 2, height: 2, channels: 3, background: '#f00' },
    })
      .png()
      .toBuffer();
    expect(await sniffContentType(png, true)).toEqual({
      contentType: 'image/png',
      extension: 'png',
    });
  });

  it('knows a TIFF whose first directory lies after its pixels, beyond the head', async () => {
    // sharp (libtiff) writes the directory at the end: its offset is past the sniffed bytes.
    const tiff = await sharp({
      create: { width: 300, height: 300, channels: 3, background: '#808080' },
    })
      .tiff({ compression: 'none' })
      .toBuffer();
    expect(tiff.readUInt32LE(4)).toBeGreaterThan(4100);
    for (const head of [tiff.subarray(0, 4100), tiff]) {
      expect(await sniffContentType(head, head === tiff)).toEqual({
        contentType: 'image/tiff',
        extension: 'tif',
      });
    }
    // Big-endian and BigTIFF signatures, the bytes after them unreadable as a directory.
    for (const magic of ['MM\0*', 'II+\0', 'MM\0+']) {
      const head = Buffer.concat([Buffer.from(magic, 'latin1'), Buffer.alloc(4096, 0xff)]);
      expect(await sniffContentType(head, false)).toMatchObject({ contentType: 'image/tiff' });
    }
  });

  it('knows a PDF', async () => {
    expect(await sniffContentType(text('%PDF-1.7\n1 0 obj\n'), false)).toMatchObject({
      contentType: 'application/pdf',
    });
  });

  it('calls valid UTF-8 without NUL bytes plain text', async () => {
    expect(await sniffContentType(text('Ciao, città!\n'), true)).toEqual({
      contentType: 'text/plain',
      extension: 'txt',
    });
    expect((await sniffContentType(Buffer.alloc(0), true)).contentType).toBe('text/plain');
  });

  it('allows a character cut at the end of the head of a longer file', async () => {
    const cut = text('aaa è').subarray(0, 5);
    expect((await sniffContentType(cut, false)).contentType).toBe('text/plain');
    expect((await sniffContentType(cut, true)).contentType).toBe('application/octet-stream');
  });

  it('calls anything else application/octet-stream', async () => {
    expect(await sniffContentType(Buffer.from([0x01, 0x80, 0x00, 0x90, 0x02, 0xc3]), true)).toEqual(
      {
        contentType: 'application/octet-stream',
        extension: null,
      },
    );
    expect((await sniffContentType(text('text\0with NUL'), true)).contentType).toBe(
      'application/octet-stream',
    );
  });

  it('recognises SVG, with or without an XML prolog', async () => {
    const bare = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const prolog = `\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg [ <!ENTITY x "y"> ]>\n${bare}`;
    for (const svg of [bare, prolog]) {
      expect(await sniffContentType(text(svg), true)).toEqual({
        contentType: 'image/svg+xml',
        extension: 'svg',
      });
    }
  });

  it('recognises HTML by the WHATWG signatures', async () => {
    for (const html of ['<!DOCTYPE html><p>x', '  <html>', '<script>alert(1)</script>', '<p>']) {
      expect((await sniffContentType(text(html), true)).contentType).toBe('text/html');
    }
    expect((await sniffContentType(text('<pre>not a signature'), true)).contentType).toBe(
      'text/plain',
    );
  });
});

describe('isTypeAllowed', () => {
  it('matches exact types, families and everything', () => {
    expect(isTypeAllowed('image/png', ['*/*'])).toBe(true);
    expect(isTypeAllowed('image/png', ['image/*', 'application/pdf'])).toBe(true);
    expect(isTypeAllowed('application/pdf', ['image/*', 'application/pdf'])).toBe(true);
    expect(isTypeAllowed('text/html', ['image/*', 'application/pdf'])).toBe(false);
    expect(isTypeAllowed('application/pdfx', ['application/pdf'])).toBe(false);
    expect(isTypeAllowed('Image/PNG', [' image/png '])).toBe(true);
    expect(isTypeAllowed('image/png', [])).toBe(false);
  });
});
