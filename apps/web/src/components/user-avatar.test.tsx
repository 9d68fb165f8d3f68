import { describe, expect, it } from 'vitest';
import { initialsOf } from './user-avatar';

describe('initialsOf', () => {
  it('takes the first and last word, or the first letter of an e-mail', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('ada augusta king')).toBe('AK');
    expect(initialsOf('Ada')).toBe('A');
    expect(initialsOf('ada@example.com')).toBe('A');
    expect(initialsOf('  Élodie   Ørsted ')).toBe('ÉØ');
    expect(initialsOf('')).toBe('');
  });
});
