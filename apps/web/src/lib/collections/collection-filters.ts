import {
  DEFAULT_SORT_DIRECTION,
  epochMsSchema,
  idSchema,
  SORT_DIRECTIONS,
  type SortDirection,
} from '@raccolta/contracts';

/** The views of the collections screen: the team's, the caller's own, the shared ones. */
export const COLLECTION_TABS = ['all', 'mine', 'shared'] as const;
export type CollectionTab = (typeof COLLECTION_TABS)[number];

/** What the collections screen shows, as kept in the address (spec §3 "Filter state"). */
export interface CollectionFilters {
  tab: CollectionTab;
  /** Created by this user id; the All view only (the others have their scope in the path). */
  member?: string;
  /** Tagged with this user id. */
  tagged?: string;
  /** Only collaborative (shared) collections; the All view only. */
  collaborative: boolean;
  /** Epoch milliseconds, inclusive; `to` is the end of its day. */
  from?: number;
  to?: number;
  /** By the updated date. */
  sort: SortDirection;
}

/** The search parameter names; defaults (All view, desc, no filter) are left out of the address. */
export const FILTER_PARAMS = {
  tab: 'tab',
  member: 'member',
  tagged: 'tagged',
  view: 'view',
  from: 'from',
  to: 'to',
  sort: 'sort',
} as const;

const COLLABORATIVE_VIEW = 'collaborative';

export const DEFAULT_COLLECTION_FILTERS: CollectionFilters = {
  tab: 'all',
  collaborative: false,
  sort: DEFAULT_SORT_DIRECTION,
};

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((candidate) => candidate === value);
}

function userId(value: string | null): string | undefined {
  const parsed = idSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function epochMs(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const parsed = epochMsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Keeps only what the view can use: creator and collaborative make sense in All only. */
export function normaliseFilters(filters: CollectionFilters): CollectionFilters {
  const { member, tagged, from, to } = filters;
  const all = filters.tab === 'all';
  return {
    tab: filters.tab,
    ...(all && member !== undefined ? { member } : {}),
    ...(tagged !== undefined ? { tagged } : {}),
    collaborative: all && filters.collaborative,
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    sort: filters.sort,
  };
}

/**
 * The filters of a shared or reloaded address. A value that is not what its parameter takes (a
 * malformed user id, a date that is no epoch, an unknown view) is ignored, never an error.
 */
export function parseCollectionFilters(params: URLSearchParams): CollectionFilters {
  const member = userId(params.get(FILTER_PARAMS.member));
  const tagged = userId(params.get(FILTER_PARAMS.tagged));
  const from = epochMs(params.get(FILTER_PARAMS.from));
  const to = epochMs(params.get(FILTER_PARAMS.to));
  return normaliseFilters({
    tab: oneOf(COLLECTION_TABS, params.get(FILTER_PARAMS.tab)) ?? 'all',
    ...(member !== undefined ? { member } : {}),
    ...(tagged !== undefined ? { tagged } : {}),
    collaborative: params.get(FILTER_PARAMS.view) === COLLABORATIVE_VIEW,
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    sort: oneOf(SORT_DIRECTIONS, params.get(FILTER_PARAMS.sort)) ?? DEFAULT_SORT_DIRECTION,
  });
}

/** `params` with the filters written over it; parameters of others are kept. */
export function writeCollectionFilters(
  params: URLSearchParams,
  filters: CollectionFilters,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of Object.values(FILTER_PARAMS)) next.delete(name);
  const { tab, member, tagged, collaborative, from, to, sort } = normaliseFilters(filters);
  if (tab !== 'all') next.set(FILTER_PARAMS.tab, tab);
  if (member !== undefined) next.set(FILTER_PARAMS.member, member);
  if (tagged !== undefined) next.set(FILTER_PARAMS.tagged, tagged);
  if (collaborative) next.set(FILTER_PARAMS.view, COLLABORATIVE_VIEW);
  if (from !== undefined) next.set(FILTER_PARAMS.from, String(from));
  if (to !== undefined) next.set(FILTER_PARAMS.to, String(to));
  if (sort !== DEFAULT_SORT_DIRECTION) next.set(FILTER_PARAMS.sort, sort);
  return next;
}

/** Whether the list is narrowed: the view and the sort order are not filters. */
export function hasActiveFilters(filters: CollectionFilters): boolean {
  const { member, tagged, collaborative, from, to } = normaliseFilters(filters);
  return (
    member !== undefined ||
    tagged !== undefined ||
    collaborative ||
    from !== undefined ||
    to !== undefined
  );
}

/** The same view and order with every filter removed (the empty state's "Clear filters"). */
export function withoutFilters(filters: CollectionFilters): CollectionFilters {
  return { ...DEFAULT_COLLECTION_FILTERS, tab: filters.tab, sort: filters.sort };
}

/**
 * Filter by creator. Only the All view takes a creator, so another view turns into All with the
 * same meaning kept: from Shared, the collaborative ones of that creator.
 */
export function withCreator(filters: CollectionFilters, creatorId: string): CollectionFilters {
  return {
    ...filters,
    tab: 'all',
    member: creatorId,
    collaborative: filters.tab === 'shared' || normaliseFilters(filters).collaborative,
  };
}

/** The address's search with the collections filtered by their creator (the Members panel's click). */
export function withCreatorFilter(params: URLSearchParams, creatorId: string): URLSearchParams {
  return writeCollectionFilters(params, withCreator(parseCollectionFilters(params), creatorId));
}
