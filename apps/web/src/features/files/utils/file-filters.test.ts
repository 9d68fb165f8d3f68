import { describe, expect, it } from 'vitest';
import {
  hasActiveFilters,
  isDefaultFilters,
  readFileFilters,
  toListFilters,
  writeFileFilters,
} from './file-filters';

const USER = '0195f0c2-7c1a-7000-8000-000000000001';
const OTHER = '0195f0c2-7c1a-7000-8000-000000000002';

describe('file filters in the address', () => {
  it('reads every filter and falls back to the defaults', () => {
    expect(readFileFilters(new URLSearchParams())).toEqual({ view: 'all', sort: 'desc' });
    expect(
      readFileFilters(new URLSearchParams(`view=mine&creator=${OTHER}&from=10&to=20&sort=asc`)),
    ).toEqual({ view: 'mine', creator: OTHER, from: 10, to: 20, sort: 'asc' });
  });

  it('drops what a hand-edited link gets wrong instead of asking the API for a 400', () => {
    expect(
      readFileFilters(new URLSearchParams('view=shared&creator=bob&from=-1&to=soon&sort=up')),
    ).toEqual({ view: 'all', sort: 'desc' });
  });

  it('writes only what differs from the defaults and keeps other parameters', () => {
    const params = writeFileFilters(new URLSearchParams('tab=x&sort=asc'), {
      view: 'all',
      creator: OTHER,
      to: 20,
      sort: 'desc',
    });
    expect(params.toString()).toBe(`tab=x&creator=${OTHER}&to=20`);
  });

  it('tells active filters from the sort order', () => {
    expect(hasActiveFilters({ view: 'all', sort: 'asc' })).toBe(false);
    expect(isDefaultFilters({ view: 'all', sort: 'asc' })).toBe(false);
    expect(hasActiveFilters({ view: 'mine', sort: 'desc' })).toBe(true);
    expect(isDefaultFilters({ view: 'all', sort: 'desc' })).toBe(true);
  });

  it('asks the API for the caller as creator in the Mine view', () => {
    expect(toListFilters({ view: 'mine', creator: OTHER, sort: 'desc', from: 1 }, USER)).toEqual({
      creator: USER,
      sort: 'desc',
      from: 1,
    });
    expect(toListFilters({ view: 'all', creator: OTHER, sort: 'asc' }, USER)).toEqual({
      creator: OTHER,
      sort: 'asc',
    });
  });

  it("keeps an upload link and a guest's name, and asks the API for them", () => {
    const LINK = '0195f0c2-7c1a-7000-8000-0000000000aa';
    const filters = readFileFilters(new URLSearchParams(`link=${LINK}&guest=%20Anna%20`));
    expect(filters).toEqual({ view: 'all', link: LINK, guest: 'Anna', sort: 'desc' });
    expect(hasActiveFilters(filters)).toBe(true);
    expect(writeFileFilters(new URLSearchParams(), filters).toString()).toBe(
      `link=${LINK}&guest=Anna`,
    );
    expect(toListFilters(filters, USER)).toEqual({ link: LINK, guest: 'Anna', sort: 'desc' });
    // Not a link id, an empty or too long name: dropped.
    expect(readFileFilters(new URLSearchParams(`link=door&guest=${'a'.repeat(81)}`))).toEqual({
      view: 'all',
      sort: 'desc',
    });
    expect(readFileFilters(new URLSearchParams('guest=%20'))).toEqual({
      view: 'all',
      sort: 'desc',
    });
  });
});
