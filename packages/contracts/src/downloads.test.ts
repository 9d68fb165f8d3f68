import { describe, expect, it } from 'vitest';
import { archiveFileName, LOCAL_TIME_PATTERN } from './downloads.js';
import { formatLocalTime } from './local-time.js';

describe('archiveFileName', () => {
  it('puts the local time first and the part, in the language, last', () => {
    expect(archiveFileName('Gita 2025', { localTime: '20261123-081502' })).toBe(
      '20261123-081502 Gita 2025.zip',
    );
    expect(archiveFileName('Gita', { part: 2, totalParts: 3, locale: 'it' })).toBe(
      'Gita (parte 2 di 3).zip',
    );
    expect(archiveFileName('Gita', { part: 2, totalParts: 3, locale: 'en' })).toBe(
      'Gita (part 2 of 3).zip',
    );
    expect(archiveFileName('Gita', { part: 1, totalParts: 1 })).toBe('Gita.zip');
  });

  it('makes the name safe for every file system', () => {
    expect(archiveFileName('a/b\\c:d*e?"f<g>h|i')).toBe('a_b_c_d_e__f_g_h_i.zip');
    expect(archiveFileName(' ..\u202Ehidden\u0000  name. ')).toBe('_hidden_ name.zip');
    expect(archiveFileName('...')).toBe('download.zip');
  });
});

describe('formatLocalTime', () => {
  it('writes the local clock as YYYYMMDD-HHmmss', () => {
    const value = formatLocalTime(new Date(2026, 0, 5, 7, 8, 9));
    expect(value).toBe('20260105-070809');
    expect(LOCAL_TIME_PATTERN.test(value)).toBe(true);
  });
});
