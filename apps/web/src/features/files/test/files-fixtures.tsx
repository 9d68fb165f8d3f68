import type { Collection, FileItem, Member, MemberRole } from '@raccolta/contracts';
import { configure } from '@testing-library/react';
import { Outlet } from 'react-router';
import { vi } from 'vitest';
import { DateLocalizationProvider } from '../../../components/date-range-filter';
import { DownloadsProvider } from '../../downloads/components/downloads-provider';
import { errorResponse, fetchRoutes, jsonResponse, renderRoutes } from '../../../test/providers';
import { ADA } from '../../../test/session-fixtures';
import { member, self, team, TEAM_ID } from '../../../test/team-fixtures';
import { CollectionFilesPage } from '../components/collection-files-page';

// The screen mounts the date pickers, MUI tables and menus: slower than the default second in CI.
configure({ asyncUtilTimeout: 5000 });

export const COLLECTION_ID = '0195f0c2-7c1a-7000-8000-0000000000c1';
export const COLLECTION_PATH = `/teams/${TEAM_ID}/collections/${COLLECTION_ID}`;
export const FILES_PATH = `${COLLECTION_PATH}/files`;
export const PAGE_PATH = `/teams/choir/collections/${COLLECTION_ID}`;

export const BEA = member({ nickname: 'Bea', role: 'uploader' });

export function collection(overrides: Partial<Collection> = {}): Collection {
  return {
    teamId: TEAM_ID,
    collectionId: COLLECTION_ID,
    name: 'Spring concert',
    description: null,
    mode: 'collaborative',
    status: 'ready',
    tags: [],
    taggedMembers: [],
    createdBy: ADA.sub,
    owner: { userId: ADA.sub, nickname: 'Ada', avatarUrl: null },
    createdAt: '2025-03-05T10:00:00.000Z',
    updatedAt: '2025-03-06T10:00:00.000Z',
    updatedBy: ADA.sub,
    readAt: null,
    filesCount: 3,
    deadline: null,
    allowLateUploads: false,
    ...overrides,
  };
}

let counter = 0;

export function fileItem(overrides: Partial<FileItem> = {}): FileItem {
  counter += 1;
  const id = String(counter).padStart(3, '0');
  return {
    fileId: `0195f0c2-7c1a-7000-8000-00000000f${id}`,
    teamId: TEAM_ID,
    collectionId: COLLECTION_ID,
    name: `file-${id}.jpg`,
    originalName: `file-${id}.jpg`,
    contentType: 'image/jpeg',
    size: 123_456,
    sha256: 'a'.repeat(64),
    thumbnailUrl: null,
    previewUrl: null,
    renditionStatus: 'none',
    uploadedBy: BEA.userId,
    uploader: { userId: BEA.userId, nickname: 'Bea', avatarUrl: null },
    createdAt: '2025-03-06T09:00:00.000Z',
    updatedAt: '2025-03-06T09:00:00.000Z',
    readAt: '2025-03-06T09:30:00.000Z',
    damaged: false,
    guest: null,
    late: false,
    ...overrides,
  };
}

export const fetchMock = vi.fn<typeof fetch>();

export interface ServeOptions {
  role?: MemberRole;
  me?: Member;
  collection?: Collection;
  files?: FileItem[];
  handlers?: Record<string, (body: unknown) => Response | Promise<Response>>;
}

/** Answers the calls of the files screen; returns the list handler to count its calls. */
export function serve({
  role = 'owner',
  me = self(role),
  collection: shown = collection(),
  files = [],
  handlers = {},
}: ServeOptions = {}) {
  const list = vi.fn(() => jsonResponse(200, { files, pagination: { lastKey: null } }));
  fetchMock.mockImplementation(
    fetchRoutes({
      'GET /teams/choir': () => jsonResponse(200, team()),
      [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: () => jsonResponse(200, me),
      [`GET /teams/${TEAM_ID}/members/${BEA.userId}`]: () => jsonResponse(200, BEA),
      [`GET ${COLLECTION_PATH}`]: () => jsonResponse(200, shown),
      [`GET ${FILES_PATH}`]: list,
      ...handlers,
    }),
  );
  return list;
}

export { errorResponse, jsonResponse };

/** The query strings of every file list request, in order. */
export function listQueries(): URLSearchParams[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(typeof input === 'string' ? input : '', 'http://localhost'))
    .filter((url) => url.pathname.endsWith(FILES_PATH))
    .map((url) => url.searchParams);
}

/** matchMedia answering like a desktop browser: width queries match, the rest (dark) do not. */
export function stubDesktop(): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('min-width'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

export function renderFilesPage(path = PAGE_PATH) {
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
            path: '/teams/:teamRef/collections/:collectionId',
            element: (
              <DateLocalizationProvider>
                <CollectionFilesPage />
              </DateLocalizationProvider>
            ),
          },
          { path: '/teams/:teamRef', element: <p>Team dashboard</p> },
          {
            path: '/teams/:teamId/downloads/:downloadId/download',
            element: <p>Download page</p>,
          },
          { path: '/404', element: <p>Page not found</p> },
        ],
      },
    ],
    path,
  );
}
