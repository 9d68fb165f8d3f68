import { describe, expect, it } from 'vitest';
import {
  contentDisposition,
  downloadRepresentation,
  isSafeInline,
  parseRangeHeader,
  safeContentType,
} from './download-headers.js';

describe('parseRangeHeader', () => {
  it.each([
    [undefined, 100, { kind: 'full' }],
    ['bytes=0-9', 100, { kind: 'partial', start: 0, end: 9 }],
    ['bytes=10-', 100, { kind: 'partial', start: 10, end: 99 }],
    ['bytes=-10', 100, { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-1000', 100, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=50-5000', 100, { kind: 'partial', start: 50, end: 99 }],
    ['bytes=99-99', 100, { kind: 'partial', start: 99, end: 99 }],
    ['BYTES=1-2', 100, { kind: 'partial', start: 1, end: 2 }],
    [' bytes=1-2 , ', 100, { kind: 'partial', start: 1, end: 2 }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=100-200', 100, { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=-5', 0, { kind: 'unsatisfiable' }],
    // Ignored, so the whole body is sent:
    ['bytes=5-1', 100, { kind: 'full' }],
    ['bytes=-', 100, { kind: 'full' }],
    ['bytes=a-b', 100, { kind: 'full' }],
    ['bytes=1-2-3', 100, { kind: 'full' }],
    ['items=0-1', 100, { kind: 'full' }],
    ['bytes 0-1', 100, { kind: 'full' }],
    ['bytes=', 100, { kind: 'full' }],
    ['bytes=0-1,5-9', 100, { kind: 'full' }],
  ])('%j of %i bytes → %o', (header, size, expected) => {
    expect(parseRangeHeader(header, size)).toEqual(expected);
  });
});

describe('contentDisposition', () => {
  it('names plain ASCII files directly', () => {
    expect(contentDisposition('attachment', 'report-2024.pdf')).toBe(
      'attachment; filename="report-2024.pdf"',
    );
  });

  it('omits the name when there is none', () => {
    expect(contentDisposition('inline')).toBe('inline');
    expect(contentDisposition('attachment', '')).toBe('attachment');
  });

  it('adds an RFC 8187 UTF-8 name with an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'Città (bozza) 😀.pdf')).toBe(
      `attachment; filename="Citta (bozza) _.pdf"; filename*=UTF-8''Citt%C3%A0%20%28bozza%29%20%F0%9F%98%80.pdf`,
    );
  });

  it('keeps quotes, backslashes, percent signs and control characters out of the fallback', () => {
    const header = contentDisposition('inline', 'a"b\\c%d/e\r\nf\'g*.txt');
    expect(header).toBe(
      `inline; filename="a_b_c_d_e__f'g*.txt"; filename*=UTF-8''a%22b%5Cc%25d%2Fe%0D%0Af%27g%2A.txt`,
    );
  });

  it('survives a lone surrogate', () => {
    expect(contentDisposition('attachment', 'x\uD800.txt')).toBe(
      `attachment; filename="x_.txt"; filename*=UTF-8''x%EF%BF%BD.txt`,
    );
  });
});

describe('isSafeInline', () => {
  it.each([
    'image/png',
    'image/jpeg',
    'IMAGE/WEBP',
    'application/pdf',
    'text/plain; charset=utf-8',
    'video/mp4',
    'audio/mpeg',
  ])('shows %s inline', (type) => {
    expect(isSafeInline(type)).toBe(true);
  });

  it.each([
    'text/html',
    'image/svg+xml',
    'application/xhtml+xml',
    'text/xml',
    'application/octet-stream',
    'application/javascript',
  ])('downloads %s', (type) => {
    expect(isSafeInline(type)).toBe(false);
  });
});

describe('safeContentType', () => {
  it.each([
    'image/png',
    'text/plain; charset=utf-8',
    'application/vnd.ms-excel',
    'multipart/x; boundary="a b"',
  ])('keeps %j', (type) => {
    expect(safeContentType(type)).toBe(type);
  });

  it.each([
    undefined,
    '',
    'png',
    'text/html\r\nX-Evil: 1',
    'image/png; x',
    'a/b/c',
    'a/b; x="\r\n"',
  ])('replaces %j', (type) => {
    expect(safeContentType(type)).toBe('application/octet-stream');
  });
});

describe('downloadRepresentation', () => {
  it.each([
    [{}, 'application/octet-stream', 'attachment'],
    [{ contentType: 'image/png', disposition: 'inline' }, 'image/png', 'inline'],
    [{ contentType: 'image/svg+xml', disposition: 'inline' }, 'image/svg+xml', 'attachment'],
    [{ contentType: 'text/html', disposition: 'inline' }, 'text/html', 'attachment'],
    [
      { contentType: 'text/html\r\nx: y', disposition: 'inline' },
      'application/octet-stream',
      'attachment',
    ],
    [
      { contentType: 'application/pdf', fileName: 'a.pdf' },
      'application/pdf',
      'attachment; filename="a.pdf"',
    ],
  ] as const)('presents %o as %s, %s', (opts, contentType, disposition) => {
    expect(downloadRepresentation(opts)).toEqual({ contentType, contentDisposition: disposition });
  });
});
