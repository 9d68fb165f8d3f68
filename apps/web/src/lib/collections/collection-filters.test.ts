import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COLLECTION_FILTERS,
  hasActiveFilters,
  parseCollectionFilters,
  withCreator,
  withCreatorFilter,
  withoutFilters,
  writeCollectionFilters,
  type CollectionFilters,
} from './collection-filters';

const BEA = '0195f0c2-7c1a-7000-8000-000000000201';
const CARLO = '0195f0c2-7c1a-7000-8000-000000000202';

const parse = (search: string) => parseCollectionFilters(new URLSearchParams(search));
const write = (filters: CollectionFilters, search = '') =>
  writeCollectionFilters(new URLSearchParams(search), filters).toString();

describe('collection filters in the address', () => {
  it('reads every filter of a shared link', () => {
    expect(
      parse(`member=${BEA}&tagged=${CARLO}&view=collaborative&from=1000&to=2000&sort=asc`),
    ).toEqual({
      tab: 'all',
      member: BEA,
      tagged: CARLO,
      collaborative: true,
      from: 1000,
      to: 2000,
      sort: 'asc',
    });
  });

  it('ignores what a parameter cannot take', () => {
    expect(
      parse('tab=recent&member=bea&tagged=&view=everything&from=yesterday&to=-5&sort=up'),
    ).toEqual(DEFAULT_COLLECTION_FILTERS);
    expect(parse('from=1.5')).toEqual(DEFAULT_COLLECTION_FILTERS);
  });

  it('drops the creator and the collaborative view outside All', () => {
    expect(parse(`tab=mine&member=${BEA}&view=collaborative&tagged=${CARLO}`)).toEqual({
      ...DEFAULT_COLLECTION_FILTERS,
      tab: 'mine',
      tagged: CARLO,
    });
    expect(parse('tab=shared&view=collaborative')).toEqual({
      ...DEFAULT_COLLECTION_FILTERS,
      tab: 'shared',
    });
  });

  it('writes only what differs from the defaults and keeps other parameters', () => {
    expect(write(DEFAULT_COLLECTION_FILTERS, 'debug=1&sort=asc')).toBe('debug=1');
    const filters: CollectionFilters = {
      tab: 'shared',
      tagged: CARLO,
      collaborative: false,
      from: 1000,
      sort: 'asc',
    };
    expect(write(filters)).toBe(`tab=shared&tagged=${CARLO}&from=1000&sort=asc`);
    expect(parse(write(filters))).toEqual(filters);
  });

  it('counts creator, tag, collaborative and dates as filters, not the view or the order', () => {
    expect(hasActiveFilters({ ...DEFAULT_COLLECTION_FILTERS, tab: 'mine', sort: 'asc' })).toBe(
      false,
    );
    expect(hasActiveFilters({ ...DEFAULT_COLLECTION_FILTERS, to: 5 })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_COLLECTION_FILTERS, collaborative: true })).toBe(true);
    expect(
      withoutFilters({ tab: 'mine', tagged: BEA, collaborative: false, from: 1, sort: 'asc' }),
    ).toEqual({ ...DEFAULT_COLLECTION_FILTERS, tab: 'mine', sort: 'asc' });
  });

  it('filters by creator in All, keeping the meaning of the Shared view', () => {
    expect(withCreator({ ...DEFAULT_COLLECTION_FILTERS, tab: 'shared' }, BEA)).toEqual({
      ...DEFAULT_COLLECTION_FILTERS,
      member: BEA,
      collaborative: true,
    });
    expect(withCreator({ ...DEFAULT_COLLECTION_FILTERS, tab: 'mine', tagged: CARLO }, BEA)).toEqual(
      { ...DEFAULT_COLLECTION_FILTERS, member: BEA, tagged: CARLO },
    );
  });

  it('filters by a member picked in the Members panel, from any tab, keeping other parameters', () => {
    const next = withCreatorFilter(new URLSearchParams('tab=mine&sort=asc&x=1'), BEA);
    expect(parseCollectionFilters(next)).toMatchObject({ tab: 'all', member: BEA, sort: 'asc' });
    expect(next.get('x')).toBe('1');
  });
});
