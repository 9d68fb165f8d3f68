import { describe, expect, it } from 'vitest';
import { safeEntryNames, shouldCompress } from './entry-names.js';

const one = (name: string) => safeEntryNames([name])[0];
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

describe('safeEntryNames', () => {
  it('keeps ordinary names and folders as they are', () => {
    expect(safeEntryNames(['Relazione finale 2025.pdf', 'foto/città.jpg', '.htaccess'])).toEqual([
      'Relazione finale 2025.pdf',
      'foto/città.jpg',
      '.htaccess',
    ]);
  });

  it('drops `..` and `.` segments, so nothing leaves the target folder', () => {
    expect(one('../../etc/passwd')).toBe('etc/passwd');
    expect(one('a/./b/../c.txt')).toBe('a/b/c.txt');
    expect(one('..')).toBe('file');
    expect(one('.')).toBe('file');
    expect(one('./..')).toBe('file');
  });

  it('makes absolute paths relative', () => {
    expect(one('/abs')).toBe('abs');
    expect(one('///etc//shadow')).toBe('etc/shadow');
  });

  it('drops drive letters', () => {
    expect(one('C:\\x')).toBe('x');
    expect(one('d:/Users/ada/photo.png')).toBe('Users/ada/photo.png');
    expect(one('C:x')).toBe('C_x'); // a colon is never kept
  });

  it('turns backslashes into `_` (they are not separators)', () => {
    expect(one('a\\b')).toBe('a_b');
    expect(one('..\\..\\Windows\\win.ini')).toBe('.._.._Windows_win.ini');
  });

  it('turns characters Windows refuses into `_`', () => {
    expect(one('What? <Yes>: "a|b" *.txt')).toBe('What_ _Yes__ _a_b_ _.txt');
  });

  it('drops empty segments and trims each segment', () => {
    expect(one('a//b///c.txt')).toBe('a/b/c.txt');
    expect(one('  spaced  /  name.txt  ')).toBe('spaced/name.txt');
    expect(one('   ')).toBe('file');
    expect(one('')).toBe('file');
  });

  it('drops trailing dots and spaces, which Windows drops', () => {
    expect(one('report.')).toBe('report');
    expect(one('folder. . /file...')).toBe('folder/file');
    expect(one('...')).toBe('file');
  });

  it('removes control characters (C0, DEL, C1)', () => {
    expect(one('a\u0000b\u0007c\u001f\u007f\u0085\u009fd.txt')).toBe('abcd.txt');
    expect(one('line\r\nbreak/tab\tbed.txt')).toBe('linebreak/tabbed.txt');
  });

  it('removes bidi overrides, isolates and zero-width characters', () => {
    // Shown as "invoice_fdp.exe" reversed, "invoice_exe.pdf".
    expect(one('invoice_\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(one('\u2066a\u2067b\u2068c\u2069\u202A\u202B\u202C\u202D\u200F.txt')).toBe('abc.txt');
    expect(one('pho\u200Bto\uFEFF.png')).toBe('photo.png');
  });

  it('replaces lone surrogates', () => {
    expect(one('bad\uD800name.txt')).toBe('bad\uFFFDname.txt');
  });

  it('avoids Windows-reserved device names, with or without extension, in any case', () => {
    expect(one('CON.txt')).toBe('CON_.txt');
    expect(one('con')).toBe('con_');
    expect(one('nul.tar.gz')).toBe('nul_.tar.gz');
    expect(one('AUX .txt')).toBe('AUX_ .txt');
    expect(one('dir/COM1.jpg')).toBe('dir/COM1_.jpg');
    expect(one('LPT9')).toBe('LPT9_');
    expect(one('PRN/file')).toBe('PRN_/file');
    expect(one('COM¹.txt')).toBe('COM¹_.txt');
    // Only the device names themselves.
    expect(one('CONSOLE.txt')).toBe('CONSOLE.txt');
    expect(one('COM10.txt')).toBe('COM10.txt');
    expect(one('con game.txt')).toBe('con game.txt');
  });

  it('shortens segments to 255 UTF-8 bytes, keeping the extension', () => {
    const long = `${'a'.repeat(300)}.jpeg`;
    const short = one(long) ?? '';
    expect(utf8(short)).toBe(255);
    expect(short).toBe(`${'a'.repeat(250)}.jpeg`);

    // Multi-byte characters are never cut in half.
    const accented = one(`${'è'.repeat(200)}.txt`) ?? '';
    expect(utf8(accented)).toBeLessThanOrEqual(255);
    expect(accented).toBe(`${'è'.repeat(125)}.txt`);
    const emoji = one('😀'.repeat(100)) ?? '';
    expect(emoji).toBe('😀'.repeat(63));

    // Each segment on its own.
    const nested = one(`${'d'.repeat(300)}/${'f'.repeat(300)}`) ?? '';
    expect(nested).toBe(`${'d'.repeat(255)}/${'f'.repeat(255)}`);
  });

  it('normalises to NFC', () => {
    expect(one('cafe\u0301.txt')).toBe('caf\u00e9.txt');
  });

  it('renames duplicates `photo (2).jpg`, `photo (3).jpg`, keeping the extension', () => {
    expect(safeEntryNames(['photo.jpg', 'photo.jpg', 'photo.jpg', 'notes', 'notes'])).toEqual([
      'photo.jpg',
      'photo (2).jpg',
      'photo (3).jpg',
      'notes',
      'notes (2)',
    ]);
  });

  it('compares case-insensitively after NFC, as macOS and Windows do', () => {
    expect(safeEntryNames(['A.jpg', 'a.jpg', 'a.JPG'])).toEqual([
      'A.jpg',
      'a (2).jpg',
      'a (3).JPG',
    ]);
    expect(safeEntryNames(['caf\u00e9.txt', 'CAFE\u0301.txt'])).toEqual([
      'caf\u00e9.txt',
      'CAF\u00c9 (2).txt',
    ]);
    expect(safeEntryNames(['Dir/x.txt', 'dir/X.txt'])).toEqual(['Dir/x.txt', 'dir/X (2).txt']);
  });

  it('never produces a name given elsewhere in the list', () => {
    expect(safeEntryNames(['photo.jpg', 'photo.jpg', 'photo (2).jpg'])).toEqual([
      'photo.jpg',
      'photo (3).jpg',
      'photo (2).jpg',
    ]);
    expect(safeEntryNames(['photo (2).jpg', 'photo.jpg', 'photo.jpg'])).toEqual([
      'photo (2).jpg',
      'photo.jpg',
      'photo (3).jpg',
    ]);
  });

  it('renames names that became equal once made safe', () => {
    expect(safeEntryNames(['a/b.txt', '/a/b.txt', '../a/./b.txt', 'a\\b.txt', 'a_b.txt'])).toEqual([
      'a/b.txt',
      'a/b (2).txt',
      'a/b (3).txt',
      'a_b.txt',
      'a_b (2).txt',
    ]);
  });

  it('renames a file whose path is also a folder of another name', () => {
    expect(safeEntryNames(['a', 'a/b.jpg', 'A/c.jpg'])).toEqual(['a (2)', 'a/b.jpg', 'A/c.jpg']);
  });

  it('keeps a renamed duplicate within 255 bytes, extension included', () => {
    const long = `${'x'.repeat(251)}.jpg`;
    const [first, second] = safeEntryNames([long, long]);
    expect(first).toBe(long);
    expect(second).toBe(`${'x'.repeat(247)} (2).jpg`);
    expect(utf8(second ?? '')).toBe(255);
  });

  it('handles many duplicates in linear time', () => {
    const names = safeEntryNames(Array.from({ length: 20_000 }, () => 'IMG_0001.JPG'));
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(20_000);
    expect(names[19_999]).toBe('IMG_0001 (20000).JPG');
  });

  it('puts the folder, made safe as one segment, before every name', () => {
    expect(safeEntryNames(['a.jpg', 'b/c.jpg'], 'Holidays 2025')).toEqual([
      'Holidays 2025/a.jpg',
      'Holidays 2025/b/c.jpg',
    ]);
    expect(safeEntryNames(['a.jpg'], ' ../Spring/Summer: \u202Edraft. ')).toEqual([
      '.._Spring_Summer_ draft/a.jpg',
    ]);
    expect(safeEntryNames(['a.jpg'], 'CON')).toEqual(['CON_/a.jpg']);
    expect(safeEntryNames(['a.jpg'], '...')).toEqual(['a.jpg']);
  });

  it('keeps the order and the count', () => {
    const input = ['z', 'y', 'x', 'y', 'z'];
    expect(safeEntryNames(input)).toEqual(['z', 'y', 'x', 'y (2)', 'z (2)']);
    expect(safeEntryNames([])).toEqual([]);
  });
});

describe('shouldCompress', () => {
  const table: [string, boolean][] = [
    ['text/plain', true],
    ['text/plain; charset=utf-8', true],
    ['TEXT/HTML', true],
    ['text/csv', true],
    ['text/markdown', true],
    ['text/rtf', true],
    ['application/json', true],
    ['application/ld+json', true],
    ['application/vnd.api+json', true],
    ['application/xml', true],
    ['application/xhtml+xml', true],
    ['application/rss+xml', true],
    ['image/svg+xml', true],
    ['image/bmp', true],
    ['image/x-ms-bmp', true],
    ['image/tiff', true],
    ['audio/wav', true],
    ['audio/x-wav', true],
    ['audio/vnd.wave', true],
    ['application/rtf', true],
    ['application/csv', true],
    ['application/msword', true],
    ['application/vnd.ms-excel', true],
    ['application/vnd.ms-powerpoint', true],
    ['application/javascript', true],
    ['application/x-tar', true],
    ['image/jpeg', false],
    ['image/png', false],
    ['image/gif', false],
    ['image/webp', false],
    ['image/heic', false],
    ['image/heif', false],
    ['image/avif', false],
    ['video/mp4', false],
    ['video/quicktime', false],
    ['audio/mpeg', false],
    ['audio/aac', false],
    ['audio/flac', false],
    ['application/pdf', false],
    ['application/zip', false],
    ['application/x-7z-compressed', false],
    ['application/vnd.rar', false],
    ['application/x-rar-compressed', false],
    ['application/gzip', false],
    ['application/epub+zip', false],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', false],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', false],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', false],
    ['application/vnd.ms-excel.sheet.macroenabled.12', false],
    ['application/vnd.oasis.opendocument.text', false],
    ['application/vnd.oasis.opendocument.spreadsheet', false],
    ['application/octet-stream', false],
    ['application/x-unknown', false],
    ['', false],
    ['garbage', false],
    ['text/', false],
  ];
  it.each(table)('%s → %s', (type, expected) => {
    expect(shouldCompress(type)).toBe(expected);
  });
});
