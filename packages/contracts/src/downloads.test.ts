import { describe, expect, it } from 'vitest';
import { archiveFileName, LOCAL_TIME_PATTERN } from './downloads.js';
import { formatLocalTime, requestedLocalTime } from './local-time.js';

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

describe('requestedLocalTime', () => {
  const requestedAt = Date.UTC(2026, 10, 27, 9, 58, 0);

  it('puts the request’s moment on the caller’s clock, whenever the link is asked for', () => {
    // Rome in November is UTC+1: two parts' links asked for minutes apart, a clock 40 s fast.
    const first = Date.UTC(2026, 10, 27, 10, 20, 0);
    const second = Date.UTC(2026, 10, 27, 13, 5, 17);
    expect(requestedLocalTime(requestedAt, '20261127-112040', first)).toBe('20261127-105800');
    expect(requestedLocalTime(requestedAt, '20261127-140417', second)).toBe('20261127-105800');
  });

  it('takes offsets of whole quarters of an hour, on either side of UTC and of midnight', () => {
    // Kathmandu, UTC+5:45; Los Angeles, UTC−8 the day before.
    expect(requestedLocalTime(requestedAt, '20261127-155000', Date.UTC(2026, 10, 27, 10, 5))).toBe(
      '20261127-154300',
    );
    expect(requestedLocalTime(requestedAt, '20261127-020500', Date.UTC(2026, 10, 27, 10, 5))).toBe(
      '20261127-015800',
    );
    expect(requestedLocalTime(requestedAt, '20261126-230000', Date.UTC(2026, 10, 27, 7, 0))).toBe(
      '20261127-015800',
    );
  });
});
