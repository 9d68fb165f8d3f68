import type { MemberRole, TrashItem, TrashListResponse } from '@raccolta/contracts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../../../app/router';
import {
  eagerRoutes,
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import { ME, self, team, TEAM_ID } from '../../../test/team-fixtures';

let routes: RouteObject[];
beforeAll(async () => {
  routes = await eagerRoutes(appRoutes);
});

const fetchMock = vi.fn<typeof fetch>();
const COLLECTION_ID = '0195f0c2-7c1a-7000-8000-0000000000c1';
const FILE_ID = '0195f0c2-7c1a-7000-8000-0000000000f1';

function item(overrides: Partial<TrashItem>): TrashItem {
  return {
    itemId: FILE_ID,
    kind: 'file',
    name: 'photo.jpg',
    collectionId: COLLECTION_ID,
    collectionName: 'Rehearsals',
    size: 2_500_000,
    fileCount: 1,
    contentType: 'image/jpeg',
    deletedBy: { userId: ADA.sub, nickname: 'Ada', avatarUrl: null },
    deletedAt: '2026-11-20T10:00:00.000Z',
    purgeAt: '2026-12-20T10:00:00.000Z',
    ...overrides,
  };
}

function listing(items: TrashItem[]): TrashListResponse {
  return {
    items,
    totals: { items: items.length, bytes: items.reduce((sum, i) => sum + i.size, 0) },
    trashDays: 30,
    pagination: { lastKey: null },
  };
}

function serve(role: MemberRole, handlers: Record<string, (body: unknown) => Response> = {}) {
  let items = [
    item({
      itemId: COLLECTION_ID,
      kind: 'collection',
      name: 'Rehearsals',
      fileCount: 3,
      size: 9_000_000,
      contentType: null,
    }),
    item({}),
  ];
  fetchMock.mockImplementation(
    fetchRoutes({
      'GET /users/@me': () => jsonResponse(200, ME),
      'GET /teams/choir': () => jsonResponse(200, team()),
      [`GET /teams/${TEAM_ID}`]: () => jsonResponse(200, team()),
      [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: () => jsonResponse(200, self(role)),
      [`GET /teams/${TEAM_ID}/trash`]: () => jsonResponse(200, listing(items)),
      [`POST /teams/${TEAM_ID}/trash/restore`]: (body) => {
        const ids = (body as { itemIds: string[] }).itemIds;
        items = items.filter((i) => !ids.includes(i.itemId));
        return jsonResponse(200, { files: 1, collections: 0 });
      },
      [`DELETE /teams/${TEAM_ID}/trash`]: () => {
        items = [];
        return jsonResponse(200, { files: 4, bytes: 11_500_000 });
      },
      ...handlers,
    }),
  );
}

describe('the trash page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
  });

  it('lists what was deleted, by whom, until when, and restores an item', async () => {
    serve('admin');
    renderRoutes(routes, '/teams/choir/trash');
    expect(await screen.findByRole('heading', { level: 1, name: 'Trash' })).toBeTruthy();
    expect(
      await screen.findByText(
        'Deleted files and collections stay here for 30 days, then they are deleted for good with their contents. Until then they still count toward the team’s storage.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('2 items · 11.5 MB')).toBeTruthy();
    expect(screen.getByText('Collection · 3 files · 9 MB')).toBeTruthy();
    expect(screen.getByText('From “Rehearsals” · 2.5 MB')).toBeTruthy();
    expect(screen.getAllByText(/^Deleted by Ada on /)).toHaveLength(2);
    expect(screen.getAllByText(/^Deleted for good on /)).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Restore “photo.jpg”' }));
    expect(await screen.findByText('Restored 1 file.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: `/teams/${TEAM_ID}/trash/restore`,
        body: { itemIds: [FILE_ID] },
      }),
    );
    await vi.waitFor(() => expect(screen.queryByText('photo.jpg')).toBeNull());
  });

  it('empties the trash only after asking', async () => {
    serve('owner');
    renderRoutes(routes, '/teams/choir/trash');
    fireEvent.click(await screen.findByRole('button', { name: 'Empty trash' }));
    const dialog = await screen.findByRole('dialog', { name: 'Empty the trash?' });
    expect(sentRequests(fetchMock).some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await screen.findByText('Deleted for good: 4 files.')).toBeTruthy();
    expect(await screen.findByText('The trash is empty.')).toBeTruthy();
  });

  it('says when an item was taken meanwhile, and lists again', async () => {
    serve('owner', {
      [`POST /teams/${TEAM_ID}/trash/restore`]: () => errorResponse(404, 'notFound'),
    });
    renderRoutes(routes, '/teams/choir/trash');
    fireEvent.click(await screen.findByRole('button', { name: 'Restore “photo.jpg”' }));
    expect(
      await screen.findByText(
        'Some of these items are no longer in the trash: someone else restored or deleted them. The list has been updated.',
      ),
    ).toBeTruthy();
  });

  it('tells uploaders and viewers that the trash is for owners and admins', async () => {
    serve('viewer');
    renderRoutes(routes, '/teams/choir/trash');
    expect(
      await screen.findByText('Only the team’s owners and admins can see its trash.'),
    ).toBeTruthy();
    expect(sentRequests(fetchMock).some((r) => r.path.endsWith('/trash'))).toBe(false);
  });
});
