import { describe, expect, it } from 'vitest';
import { browserLanguages, detectLanguage } from './detect-language';

describe('detectLanguage', () => {
  it('defaults to English', () => {
    expect(detectLanguage([])).toBe('en');
    expect(detectLanguage(['en-US', 'de-DE', 'fr'])).toBe('en');
  });

  it('chooses Italian when any entry is Italian, not only the first', () => {
    expect(detectLanguage(['it'])).toBe('it');
    expect(detectLanguage(['it-IT'])).toBe('it');
    expect(detectLanguage(['en-US', 'en', 'it-CH'])).toBe('it');
    expect(detectLanguage(['IT_it'])).toBe('it');
  });

  it('does not mistake other languages that merely start with the letters "it"', () => {
    expect(detectLanguage(['iu-CA', 'ita-XX'])).toBe('en');
  });
});

describe('browserLanguages', () => {
  it('prefers the list and falls back to the single language', () => {
    expect(browserLanguages({ languages: ['en-GB', 'it'], language: 'en-GB' })).toEqual([
      'en-GB',
      'it',
    ]);
    expect(browserLanguages({ languages: [], language: 'it-IT' })).toEqual(['it-IT']);
    expect(browserLanguages({ languages: [], language: '' })).toEqual([]);
  });
});
