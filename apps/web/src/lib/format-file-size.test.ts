import { describe, expect, it } from 'vitest';
import { formatFileSize } from './format-file-size';

describe('formatFileSize', () => {
  it('uses decimal units in the interface language', () => {
    expect(formatFileSize(0, 'en')).toBe('0 bytes');
    expect(formatFileSize(999, 'en')).toBe('999 bytes');
    expect(formatFileSize(1_500, 'en')).toBe('1.5 kB');
    expect(formatFileSize(1_500_000, 'it')).toBe('1,5 MB');
    expect(formatFileSize(250_000_000, 'en')).toBe('250 MB');
  });
});
