import type { Download, DownloadPart } from '@raccolta/contracts';
import { configure } from '@testing-library/react';
import { Outlet, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { fetchRoutes, renderRoutes } from '../../../test/providers';
import { TEAM_ID } from '../../../test/team-fixtures';
import { DownloadPage } from '../components/download-page';
import { DownloadsProvider } from '../components/downloads-provider';
import { useDownloads } from '../../../lib/downloads-context';

configure({ asyncUtilTimeout: 5000 });

export const DOWNLOAD_ID = '0195f0c2-7c1a-7000-8000-0000000000d1';
export const COLLECTION_ID = '0195f0c2-7c1a-7000-8000-0000000000c1';
export const DOWNLOADS_PATH = `/teams/${TEAM_ID}/downloads`;
export const DOWNLOAD_PATH = `${DOWNLOADS_PATH}/${DOWNLOAD_ID}`;
export const LINK_PATH = `${DOWNLOAD_PATH}/download`;
export const PAGE_PATH = `/teams/${TEAM_ID}/downloads/${DOWNLOAD_ID}/download`;
export const SIGNED_URL = 'https://files.example/api/storage/signed-token';

export function part(partId: number, overrides: Partial<DownloadPart> = {}): DownloadPart {
  return { partId, status: 'ready', fileCount: 40, size: 1_900_000_000, ...overrides };
}

export function download(overrides: Partial<Download> = {}): Download {
  return {
    requestId: DOWNLOAD_ID,
    teamId: TEAM_ID,
    collectionId: COLLECTION_ID,
    collectionName: 'Spring concert',
    status: 'inProgress',
    totalParts: null,
    readyParts: 0,
    fileCount: 3,
    totalBytes: 2_500_000,
    parts: [],
    createdAt: '2025-03-06T10:00:00.000Z',
    readyAt: null,
    expiresAt: null,
    ...overrides,
  };
}

export function readyDownload(overrides: Partial<Download> = {}): Download {
  return download({
    status: 'ready',
    totalParts: 1,
    readyParts: 1,
    parts: [part(1, { fileCount: 3, size: 2_400_000 })],
    readyAt: '2025-03-06T10:01:00.000Z',
    expiresAt: '2025-03-09T10:01:00.000Z',
    ...overrides,
  });
}

export const fetchMock = vi.fn<typeof fetch>();

export function serve(handlers: Parameters<typeof fetchRoutes>[0]) {
  fetchMock.mockImplementation(fetchRoutes(handlers));
}

/** The address and query of every call to `path` with `method`, in order. */
export function calls(path: string, method = 'GET'): URL[] {
  return fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === method)
    .map(([input]) => new URL(typeof input === 'string' ? input : '', 'http://localhost'))
    .filter((url) => url.pathname === `/api${path}`);
}

/** A stand-in for the screens that request downloads. */
function Requester() {
  const { request, isRequesting } = useDownloads();
  const collection = { teamId: TEAM_ID, collectionId: COLLECTION_ID, name: 'Spring concert' };
  return (
    <button type="button" onClick={() => request(collection)}>
      {isRequesting(COLLECTION_ID) ? 'Requesting…' : 'Download Spring concert'}
    </button>
  );
}

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="location">{`${pathname}${search}`}</p>;
}

/** The provider around the app's pages, a requesting screen, and the download page. */
export function renderWithDownloads(path = '/teams/choir') {
  const routes: RouteObject[] = [
    {
      element: (
        <DownloadsProvider>
          <Outlet />
          <Where />
        </DownloadsProvider>
      ),
      children: [
        { path: '/teams/:teamRef', element: <Requester /> },
        { path: '/teams/:teamId/downloads/:downloadId/download', element: <DownloadPage /> },
        { path: '/', element: <p>Home</p> },
        { path: '/teams/:teamRef/collections/:collectionId', element: <p>Files screen</p> },
      ],
    },
  ];
  return renderRoutes(routes, path);
}
