import { describe, expect, it } from 'vitest';
import {
  applyFlagsParam,
  FLAG_OVERRIDES_KEY,
  isFlagOn,
  loadFlagOverrides,
  parseFlagsParam,
  parseStoredOverrides,
} from './flag-overrides';

describe('feature flag overrides', () => {
  it('reads names as on, -names as off, and ignores unknown names', () => {
    expect(parseFlagsParam('lang-switcher,-query-dev,teleport, ')).toEqual({
      reset: false,
      changes: { 'lang-switcher': true, 'query-dev': false },
    });
    expect(parseFlagsParam('reset,query-dev')).toEqual({
      reset: true,
      changes: { 'query-dev': true },
    });
  });

  it('ignores malformed or unknown stored values', () => {
    expect(parseStoredOverrides(null)).toEqual({});
    expect(parseStoredOverrides('{nope')).toEqual({});
    expect(parseStoredOverrides('[true]')).toEqual({});
    expect(parseStoredOverrides('{"lang-switcher":"yes","query-dev":true,"x":true}')).toEqual({
      'query-dev': true,
    });
  });

  it('layers the query parameter over what is stored; reset starts again', () => {
    const stored = { 'lang-switcher': true as const };
    expect(applyFlagsParam(stored, null)).toBe(stored);
    expect(applyFlagsParam(stored, '-query-dev')).toEqual({
      'lang-switcher': true,
      'query-dev': false,
    });
    expect(applyFlagsParam(stored, 'reset')).toEqual({});
  });

  it('lets a local override win over the server in both directions', () => {
    expect(isFlagOn('lang-switcher', [], {})).toBe(false);
    expect(isFlagOn('lang-switcher', ['lang-switcher'], {})).toBe(true);
    expect(isFlagOn('lang-switcher', [], { 'lang-switcher': true })).toBe(true);
    expect(isFlagOn('lang-switcher', ['lang-switcher'], { 'lang-switcher': false })).toBe(false);
  });

  it('keeps overrides from the URL in storage for later visits, and forgets them on reset', () => {
    localStorage.clear();
    expect(loadFlagOverrides(localStorage, '?flags=lang-switcher')).toEqual({
      'lang-switcher': true,
    });
    expect(localStorage.getItem(FLAG_OVERRIDES_KEY)).toBe('{"lang-switcher":true}');
    // A later page without the parameter keeps them.
    expect(loadFlagOverrides(localStorage, '?team=x')).toEqual({ 'lang-switcher': true });
    expect(loadFlagOverrides(localStorage, '?flags=reset')).toEqual({});
    expect(localStorage.getItem(FLAG_OVERRIDES_KEY)).toBeNull();
  });
});
