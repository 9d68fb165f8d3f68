import { describe, expect, it } from 'vitest';
import {
  oppositeMode,
  readStoredThemeMode,
  resolveThemeMode,
  storeThemeMode,
  THEME_MODE_STORAGE_KEY,
} from './theme-mode';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const values = new Map(Object.entries(initial));
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => values.delete(key),
    setItem: (key, value) => values.set(key, value),
  };
}

function blocked(): never {
  throw new DOMException('blocked', 'SecurityError');
}
const blockedStorage = { getItem: blocked, setItem: blocked };

describe('theme mode persistence', () => {
  it('stores the choice under themeMode and reads it back', () => {
    const storage = memoryStorage();
    expect(readStoredThemeMode(storage)).toBeNull();
    storeThemeMode(storage, 'dark');
    expect(storage.getItem(THEME_MODE_STORAGE_KEY)).toBe('dark');
    expect(readStoredThemeMode(storage)).toBe('dark');
    storeThemeMode(storage, 'light');
    expect(readStoredThemeMode(storage)).toBe('light');
  });

  it('ignores values it did not write', () => {
    expect(readStoredThemeMode(memoryStorage({ themeMode: 'system' }))).toBeNull();
    expect(readStoredThemeMode(memoryStorage({ themeMode: '' }))).toBeNull();
  });

  it('survives storage that throws or is missing', () => {
    expect(readStoredThemeMode(blockedStorage)).toBeNull();
    expect(() => storeThemeMode(blockedStorage, 'dark')).not.toThrow();
    expect(readStoredThemeMode(undefined)).toBeNull();
  });

  it('follows the system unless the user chose', () => {
    expect(resolveThemeMode(null, true)).toBe('dark');
    expect(resolveThemeMode(null, false)).toBe('light');
    expect(resolveThemeMode('light', true)).toBe('light');
    expect(resolveThemeMode('dark', false)).toBe('dark');
    expect(oppositeMode('dark')).toBe('light');
    expect(oppositeMode('light')).toBe('dark');
  });
});
