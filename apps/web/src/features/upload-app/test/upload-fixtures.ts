import type { Collection, FileItem, MemberRole, TeamListItem, TeamMode } from '@raccolta/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { routes } from '../../../app/router';
import { fetchRoutes, jsonResponse, renderRoutes } from '../../../test/providers';
import { ADA } from '../../../test/session-fixtures';
import { ME, self, team, TEAM_ID, teamListItem } from '../../../test/team-fixtures';
import {
  collection,
  COLLECTION_ID,
  COLLECTION_PATH,
  FILES_PATH,
} from '../../files/test/files-fixtures';

export { collection, COLLECTION_ID, COLLECTION_PATH, FILES_PATH };

export const fetchMock = vi.fn<typeof fetch>();
export const UPLOADS_PATH = `${COLLECTION_PATH}/uploads`;
export const SCREEN_PATH = `/upload/teams/choir/collections/${COLLECTION_ID}`;

export interface UploadAppServer {
  role?: MemberRole;
  teamMode?: TeamMode;
  teams?: TeamListItem[];
  collections?: Collection[];
  files?: FileItem[];
  handlers?: Record<string, (body: unknown) => Response | Promise<Response>>;
}

/** Answers the upload app's API calls; returns the files list handler to count its calls. */
export function serveUploadApp({
  role = 'uploader',
  teamMode = 'collaborative',
  teams = [teamListItem({ memberRole: role, mode: teamMode })],
  collections = [collection()],
  files = [],
  handlers = {},
}: UploadAppServer = {}) {
  const list = vi.fn(() => jsonResponse(200, { files, pagination: { lastKey: null } }));
  fetchMock.mockImplementation(
    fetchRoutes({
      'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
      'GET /users/@me': () => jsonResponse(200, ME),
      'GET /teams': () => jsonResponse(200, { teams, pagination: { lastKey: null } }),
      'GET /teams/choir': () => jsonResponse(200, team({ mode: teamMode })),
      [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: () => jsonResponse(200, self(role)),
      [`GET /teams/${TEAM_ID}/collections`]: () =>
        jsonResponse(200, { collections, pagination: { lastKey: null } }),
      [`GET ${COLLECTION_PATH}`]: () => jsonResponse(200, collections[0] ?? collection()),
      [`GET ${FILES_PATH}`]: list,
      ...handlers,
    }),
  );
  return list;
}

/** The whole app's routes, at a path of the upload app. */
export function renderUploadApp(path: string) {
  return renderRoutes(routes, path);
}

export function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label, { exact: false, selector: 'input' }), {
    target: { value },
  });
}

export function submit(name: string) {
  const form = screen.getByRole('button', { name }).closest('form');
  if (!form) throw new Error('no form');
  fireEvent.submit(form);
}

/** Chooses files in the hidden input named `label` ("Take photos" or "Choose files"). */
export function choose(label: string, files: File[]) {
  const input = screen.getByLabelText(label, { selector: 'input' });
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
}

export function photo(name: string, size: number, lastModified = 1_700_000_000_000): File {
  return new File([new Uint8Array(size).fill(1)], name, { type: 'image/jpeg', lastModified });
}

/** Sets what navigator.onLine answers and fires the matching window event. */
export function goOnline(online: boolean) {
  Object.defineProperty(window.navigator, 'onLine', { value: online, configurable: true });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}
