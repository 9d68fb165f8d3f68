import { FILE_NAME_MAX_LENGTH } from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import { cleanOriginalName, safeFileName, withoutInvisible } from './file-name.js';

const length = (text: string) => Array.from(text).length;

describe('safeFileName', () => {
  it('keeps an ordinary name as it is', () => {
    expect(safeFileName('Relazione finale 2025.pdf')).toBe('Relazione finale 2025.pdf');
    expect(safeFileName('città.jpg')).toBe('città.jpg');
  });

  it('keeps only the last path segment, whichever slash separates them', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('..\\..\\Windows\\win.ini')).toBe('win.ini');
    expect(safeFileName('C:\\Users\\ada\\photo.png')).toBe('photo.png');
    expect(safeFileName('/absolute/path/')).toBe('file');
  });

  it('drops leading dots, so nothing becomes a hidden file or a parent reference', () => {
    expect(safeFileName('.htaccess')).toBe('htaccess');
    expect(safeFileName('..')).toBe('file');
    expect(safeFileName(' . .profile ')).toBe('profile');
  });

  it('removes control characters (C0, DEL, C1)', () => {
    expect(safeFileName('a\u0000b\u0007c\u001f\u007f\u0085\u009fd.txt')).toBe('abcd.txt');
    expect(safeFileName('line\r\nbreak.txt')).toBe('linebreak.txt');
  });

  it('removes bidi overrides and isolates that would disguise the extension', () => {
    // Shown as "invoice_fdp.exe" reversed: "invoice_exe.pdf".
    expect(safeFileName('invoice_\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(safeFileName('\u2066a\u2067b\u2068c\u2069\u202A\u202B\u202C\u202D.txt')).toBe('abc.txt');
  });

  it('removes zero-width characters', () => {
    expect(safeFileName('pho\u200Bto\u200C\u200D\u2060\uFEFF.png')).toBe('photo.png');
  });

  it('normalises to NFC and trims', () => {
    const decomposed = 'cafe\u0301.txt';
    expect(safeFileName(`  ${decomposed}  `)).toBe('caf\u00e9.txt');
  });

  it('shortens long names to the limit, keeping the extension', () => {
    const name = safeFileName(`${'a'.repeat(300)}.jpeg`);
    expect(length(name)).toBe(FILE_NAME_MAX_LENGTH);
    expect(name.endsWith('a.jpeg')).toBe(true);
  });

  it('counts code points, never splitting a surrogate pair', () => {
    const name = safeFileName(`${'😀'.repeat(300)}.png`);
    expect(length(name)).toBe(FILE_NAME_MAX_LENGTH);
    expect(name).toMatch(/^(😀)+\.png$/u);
  });

  it('cuts a long name without a plausible extension like any text', () => {
    const name = safeFileName(`x.${'y'.repeat(300)}`);
    expect(length(name)).toBe(FILE_NAME_MAX_LENGTH);
    expect(name.startsWith('x.yyy')).toBe(true);
  });

  it('falls back to `file` with the sniffed extension when nothing is left', () => {
    expect(safeFileName('', 'png')).toBe('file.png');
    expect(safeFileName(undefined, null)).toBe('file');
    expect(safeFileName('\u202E\u0000 ...', 'pdf')).toBe('file.pdf');
    expect(safeFileName('dir/', 'txt')).toBe('file.txt');
  });

  it('replaces lone surrogates', () => {
    expect(safeFileName('a\uD800b.txt')).toBe('a\uFFFDb.txt');
  });
});

describe('cleanOriginalName', () => {
  it('keeps what the client sent, paths included', () => {
    expect(cleanOriginalName('../x/città evil.txt')).toBe('../x/città evil.txt');
  });

  it('removes control, bidi and zero-width characters', () => {
    expect(cleanOriginalName('a\u0000b\r\n\u0007\u007f\u009b.jpg')).toBe('ab.jpg');
    expect(cleanOriginalName('invoice_\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(cleanOriginalName('\u2066x\u2069\u200B\u200E\u061C\u2028\uFEFF.txt')).toBe('x.txt');
    expect(cleanOriginalName('\u202E')).toBe('');
  });

  it('bounds it in code points and makes it well-formed', () => {
    expect(length(cleanOriginalName('é'.repeat(300)))).toBe(FILE_NAME_MAX_LENGTH);
    expect(length(cleanOriginalName(`${'\u0000'.repeat(100)}${'a'.repeat(255)}`))).toBe(
      FILE_NAME_MAX_LENGTH,
    );
    expect(cleanOriginalName('\uDC00a')).toBe('\uFFFDa');
    expect(cleanOriginalName(undefined)).toBe('');
  });
});

describe('withoutInvisible', () => {
  it('returns clean text as it is and cleans the rest', () => {
    const clean = 'photo 1.jpg';
    expect(withoutInvisible(clean)).toBe(clean);
    expect(withoutInvisible('line\r\nbreak\u202E.txt')).toBe('linebreak.txt');
  });
});
