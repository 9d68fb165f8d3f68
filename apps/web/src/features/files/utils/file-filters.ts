import { DEFAULT_SORT_DIRECTION, SORT_DIRECTIONS, type SortDirection } from '@raccolta/contracts';
import { z } from 'zod';
import type { FileListFilters } from '../../../lib/files/file-keys';

export const FILE_VIEWS = ['all', 'mine'] as const;
export type FileView = (typeof FILE_VIEWS)[number];

/**
 * The files screen's filters as the address keeps them: ?view=&creator=&link=&guest=&from=&to=
 * &sort= (`link` and `guest`: files sent by guests through an upload link, issue #36).
 */
export interface FileFilters {
  view: FileView;
  creator?: string;
  link?: string;
  guest?: string;
  from?: number;
  to?: number;
  sort: SortDirection;
}

export const FILTER_PARAMS = ['view', 'creator', 'link', 'guest', 'from', 'to', 'sort'] as const;

/** The API's longest guest name (GUEST_NAME_MAX_LENGTH). */
const GUEST_MAX_LENGTH = 80;

const uuid = z.uuid();

function readEpoch(value: string | null): number | undefined {
  if (value === null || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

function readOne<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((candidate) => candidate === value);
}

/**
 * The filters of an address; a value that makes no sense (a hand-edited link) is dropped rather
 * than sent to the API for a 400.
 */
export function readFileFilters(params: URLSearchParams): FileFilters {
  const creator = params.get('creator');
  const link = params.get('link');
  const guest = params.get('guest')?.trim() ?? '';
  const from = readEpoch(params.get('from'));
  const to = readEpoch(params.get('to'));
  return {
    view: readOne(FILE_VIEWS, params.get('view')) ?? 'all',
    ...(creator !== null && uuid.safeParse(creator).success ? { creator } : {}),
    ...(link !== null && uuid.safeParse(link).success ? { link } : {}),
    ...(guest !== '' && guest.length <= GUEST_MAX_LENGTH ? { guest } : {}),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    sort: readOne(SORT_DIRECTIONS, params.get('sort')) ?? DEFAULT_SORT_DIRECTION,
  };
}

/**
 * `params` with the filters written in, defaults left out so a plain address stays plain; other
 * parameters are kept.
 */
export function writeFileFilters(params: URLSearchParams, filters: FileFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of FILTER_PARAMS) next.delete(name);
  if (filters.view !== 'all') next.set('view', filters.view);
  if (filters.creator !== undefined) next.set('creator', filters.creator);
  if (filters.link !== undefined) next.set('link', filters.link);
  if (filters.guest !== undefined) next.set('guest', filters.guest);
  if (filters.from !== undefined) next.set('from', String(filters.from));
  if (filters.to !== undefined) next.set('to', String(filters.to));
  if (filters.sort !== DEFAULT_SORT_DIRECTION) next.set('sort', filters.sort);
  return next;
}

/** Whether anything narrows the list (the sort order does not). */
export function hasActiveFilters(filters: FileFilters): boolean {
  return (
    filters.view !== 'all' ||
    filters.creator !== undefined ||
    filters.link !== undefined ||
    filters.guest !== undefined ||
    filters.from !== undefined ||
    filters.to !== undefined
  );
}

/** Whether anything differs from a plain address, the sort order included: Clear filters acts. */
export function isDefaultFilters(filters: FileFilters): boolean {
  return !hasActiveFilters(filters) && filters.sort === DEFAULT_SORT_DIRECTION;
}

/** What the API is asked: the Mine view is the list of the caller's own uploads. */
export function toListFilters(filters: FileFilters, userId: string | null): FileListFilters {
  const creator = filters.view === 'mine' ? (userId ?? undefined) : filters.creator;
  return {
    ...(creator === undefined ? {} : { creator }),
    ...(filters.link === undefined ? {} : { link: filters.link }),
    ...(filters.guest === undefined ? {} : { guest: filters.guest }),
    sort: filters.sort,
    ...(filters.from === undefined ? {} : { from: filters.from }),
    ...(filters.to === undefined ? {} : { to: filters.to }),
  };
}
