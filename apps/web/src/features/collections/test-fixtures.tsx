import type { Collection, MemberRef, MemberRole, TeamMode } from '@raccolta/contracts';
import { expect, vi } from 'vitest';
import {
  createTestQueryClient,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
} from '../../test/providers';
import { ADA } from '../../test/session-fixtures';
import { member, team, TEAM_ID } from '../../test/team-fixtures';
import { Outlet } from 'react-router';
import { DateLocalizationProvider } from '../../components/date-range-filter';
import { DownloadsProvider } from '../downloads/components/downloads-provider';
import { CollectionsView } from './components/collections-view';

/** Fixtures and a rendering helper for the collections tests. */

let counter = 0;
const uuid = (n: number) => `0195f0c2-7c1a-7000-8000-${String(n).padStart(12, '0')}`;

export const ADA_REF: MemberRef = { userId: ADA.sub, nickname: 'Ada', avatarUrl: null };
export const BEA_REF: MemberRef = { userId: uuid(901), nickname: 'Bea', avatarUrl: null };
export const CARLO_REF: MemberRef = { userId: uuid(902), nickname: 'Carlo', avatarUrl: null };

export const COLLECTIONS_PATH = `/teams/${TEAM_ID}/collections`;
export const MINE_PATH = `/teams/${TEAM_ID}/members/${ADA.sub}/collections`;
export const SHARED_PATH = `/teams/${TEAM_ID}/shared-collections`;

export function collection(overrides: Partial<Collection> = {}): Collection {
  counter += 1;
  const tagged = overrides.taggedMembers ?? [];
  return {
    teamId: TEAM_ID,
    collectionId: uuid(counter),
    name: `Collection ${counter}`,
    description: null,
    mode: 'owned',
    status: 'ready',
    tags: tagged.map((ref) => ref.userId),
    taggedMembers: tagged,
    createdBy: (overrides.owner ?? ADA_REF).userId,
    owner: ADA_REF,
    createdAt: '2025-03-05T10:00:00.000Z',
    updatedAt: '2025-03-06T10:00:00.000Z',
    updatedBy: ADA.sub,
    readAt: '2025-03-07T10:00:00.000Z',
    filesCount: 3,
    deadline: null,
    allowLateUploads: false,
    ...overrides,
  };
}

export function listPage(collections: Collection[], lastKey: string | null = null) {
  return { collections, pagination: { lastKey } };
}

type Handler = Parameters<typeof fetchRoutes>[0][string];

/** The address a fetch call asked for. */
export function requestUrl(input: RequestInfo | URL): URL {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(href, 'http://localhost');
}

/**
 * A fetch stand-in like fetchRoutes, but list handlers also get the query: the collections
 * lists answer by their filters and cursor.
 */
export function fetchWithQuery(
  lists: Record<string, (query: URLSearchParams) => Response | Promise<Response>>,
  others: Record<string, Handler> = {},
) {
  const routes = fetchRoutes(others);
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    await Promise.resolve();
    const url = requestUrl(input);
    const path = url.pathname.replace(/^\/api/, '');
    const list = lists[`${init?.method ?? 'GET'} ${path}`];
    return list ? list(url.searchParams) : routes(input, init);
  };
}

/** The query strings of the GET calls to `path`, in order. */
export function listQueries(
  mock: { mock: { calls: Parameters<typeof fetch>[] } },
  path: string,
): URLSearchParams[] {
  return mock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === 'GET')
    .map(([input]) => requestUrl(input))
    .filter((url) => url.pathname.replace(/^\/api/, '') === path)
    .map((url) => url.searchParams);
}

export function renderCollections(
  options: { role?: MemberRole; teamMode?: TeamMode; search?: string } = {},
) {
  const { role = 'owner', teamMode = 'collaborative', search = '' } = options;
  const queryClient = createTestQueryClient();
  return renderRoutes(
    [
      {
        // As in the app, downloads are followed around the pages.
        element: (
          <DownloadsProvider>
            <Outlet />
          </DownloadsProvider>
        ),
        children: [
          {
            path: '/teams/:teamRef',
            element: (
              <DateLocalizationProvider>
                <CollectionsView
                  team={team({ mode: teamMode })}
                  teamRef="choir"
                  actor={{ userId: ADA.sub, role }}
                />
              </DateLocalizationProvider>
            ),
          },
          { path: '/teams/:teamRef/collections/:collectionId', element: <p>Files screen</p> },
          {
            path: '/teams/:teamId/downloads/:downloadId/download',
            element: <p>Download page</p>,
          },
        ],
      },
    ],
    `/teams/choir${search}`,
    { queryClient },
  );
}

type FetchMock = ReturnType<typeof vi.fn<typeof fetch>>;

/**
 * Every list (All, Mine, Shared) answers `collections`; with `second`, a first page of them and a
 * second page of `second`. Bea's member record is there for the filter chips.
 */
export function serveCollections(
  fetchMock: FetchMock,
  collections = [collection()],
  second?: Collection[],
) {
  const list = vi.fn((query: URLSearchParams) =>
    jsonResponse(
      200,
      second !== undefined && query.get('lastKey') === null
        ? listPage(collections, 'page-2')
        : listPage(second ?? collections),
    ),
  );
  fetchMock.mockImplementation(
    fetchWithQuery(
      {
        [`GET ${COLLECTIONS_PATH}`]: list,
        [`GET ${MINE_PATH}`]: list,
        [`GET ${SHARED_PATH}`]: list,
      },
      {
        [`GET /teams/${TEAM_ID}/members/${BEA_REF.userId}`]: () =>
          jsonResponse(200, member({ userId: BEA_REF.userId, nickname: 'Bea' })),
      },
    ),
  );
  return list;
}

/** Waits until the last list call to `path` had exactly this query (page size and sort added). */
export async function expectLastQuery(
  fetchMock: FetchMock,
  expected: Record<string, string>,
  path = COLLECTIONS_PATH,
) {
  await vi.waitFor(() => {
    const query = listQueries(fetchMock, path).at(-1);
    if (query === undefined) throw new Error(`no call to ${path}`);
    expect(Object.fromEntries(query)).toEqual({ limit: '20', sort: 'desc', ...expected });
  });
}
