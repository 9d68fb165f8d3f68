import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, stubMatchMedia } from '../../../test/providers';
import { storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import {
  collection,
  COLLECTIONS_PATH,
  fetchWithQuery,
  listPage,
  renderCollections,
} from '../test-fixtures';

const fetchMock = vi.fn<typeof fetch>();
const DOWNLOADS_PATH = `/teams/${TEAM_ID}/downloads`;

function serve(
  collections: ReturnType<typeof collection>[],
  post: (body: unknown) => Response = () => errorResponse(500, 'generic'),
) {
  const list = () => jsonResponse(200, listPage(collections));
  fetchMock.mockImplementation(
    fetchWithQuery({ [`GET ${COLLECTIONS_PATH}`]: list }, { [`POST ${DOWNLOADS_PATH}`]: post }),
  );
}

async function rowOf(name: string) {
  const list = await screen.findByRole('list', { name: 'Collections' });
  const row = within(list)
    .getAllByRole('listitem')
    .find((item) => within(item).queryByRole('link', { name }) !== null);
  if (row === undefined) throw new Error(`no row ${name}`);
  return within(row);
}

describe('collection download from the list', { timeout: 15_000 }, () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('requests the collection from its menu and says it is being prepared', async () => {
    const spring = collection({ name: 'Spring concert' });
    const post = vi.fn((body: unknown) =>
      jsonResponse(202, {
        requestId: '0195f0c2-7c1a-7000-8000-0000000000d1',
        teamId: TEAM_ID,
        collectionId: (body as { collectionId: string }).collectionId,
        collectionName: 'Spring concert',
        status: 'inProgress',
        totalParts: null,
        readyParts: 0,
        fileCount: 3,
        totalBytes: 1000,
        parts: [],
        createdAt: '2025-03-06T10:00:00.000Z',
        readyAt: null,
        expiresAt: null,
      }),
    );
    serve([spring], post);
    renderCollections({ role: 'owner' });
    const row = await rowOf('Spring concert');
    fireEvent.click(row.getByRole('button', { name: 'Actions for Spring concert' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Download',
      'Edit',
      'Upload links',
      'Mark as unread',
      'Delete',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Download' }));
    expect(
      await screen.findByText(
        'Preparing the download of “Spring concert”… We’ll also e-mail you when it is ready.',
      ),
    ).toBeTruthy();
    expect(post).toHaveBeenCalledWith({ collectionId: spring.collectionId });
  });

  it('shows a refused request as an error toast', async () => {
    serve([collection({ name: 'Spring concert' })], () => errorResponse(403, 'forbidden'));
    renderCollections({ role: 'admin' });
    const row = await rowOf('Spring concert');
    fireEvent.click(row.getByRole('button', { name: 'Actions for Spring concert' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Download' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The download of “Spring concert” could not be prepared.');
  });

  it('marks a read collection unread and an unread one read from its menu', async () => {
    const unread = vi.fn(() => new Response(null, { status: 204 }));
    const read = vi.fn(() => new Response(null, { status: 204 }));
    const spring = collection({ name: 'Spring concert' });
    const winter = collection({ name: 'Winter walk', readAt: null });
    const list = vi.fn(() => jsonResponse(200, listPage([spring, winter])));
    fetchMock.mockImplementation(
      fetchWithQuery(
        { [`GET ${COLLECTIONS_PATH}`]: list },
        {
          [`DELETE ${COLLECTIONS_PATH}/${spring.collectionId}/read`]: unread,
          [`PUT ${COLLECTIONS_PATH}/${winter.collectionId}/read`]: read,
        },
      ),
    );
    renderCollections({ role: 'viewer' });
    const springRow = await rowOf('Spring concert');
    const before = list.mock.calls.length;
    fireEvent.click(springRow.getByRole('button', { name: 'Actions for Spring concert' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mark as unread' }));
    await vi.waitFor(() => expect(unread).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(before));
    const winterRow = await rowOf('Winter walk');
    fireEvent.click(winterRow.getByRole('button', { name: 'Actions for Winter walk' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mark as read' }));
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(1));
  });

  it('leaves Download out for an empty collection', async () => {
    serve([collection({ name: 'Empty', filesCount: 0 })]);
    renderCollections({ role: 'owner' });
    const row = await rowOf('Empty');
    fireEvent.click(row.getByRole('button', { name: 'Actions for Empty' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Edit',
      'Upload links',
      'Mark as unread',
      'Delete',
    ]);
  });

  it('gives a contributor no Download, even on their own collection', async () => {
    serve([collection({ name: 'Mine' })]);
    renderCollections({ role: 'uploader' });
    const row = await rowOf('Mine');
    // The uploader created it, so Edit and its upload links are there; Download is not (spec
    // §6: no createDownload).
    fireEvent.click(row.getByRole('button', { name: 'Actions for Mine' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Edit',
      'Upload links',
      'Mark as unread',
    ]);
    expect(screen.queryByRole('menuitem', { name: 'Download' })).toBeNull();
  });
});
