import type { Collection } from '@raccolta/contracts';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubMatchMedia } from '../../../test/providers';
import { storeSession } from '../../../test/session-fixtures';
import {
  BEA_REF,
  collection,
  COLLECTIONS_PATH,
  expectLastQuery,
  fetchWithQuery,
  listPage,
  renderCollections,
  serveCollections,
  SHARED_PATH,
} from '../test-fixtures';

const fetchMock = vi.fn<typeof fetch>();
const serve = (collections?: Collection[], second?: Collection[]) =>
  serveCollections(fetchMock, collections, second);
const expectQuery = (expected: Record<string, string>, path?: string) =>
  expectLastQuery(fetchMock, expected, path);

describe('collections view states', { timeout: 15_000 }, () => {
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
  });

  it('with filters and no result, says filters are active and clears them', async () => {
    const list = serve([]);
    renderCollections({ search: `?tab=shared&tagged=${BEA_REF.userId}&sort=asc` });
    expect(await screen.findByText('No collections match the filters')).toBeTruthy();
    expect(
      screen.getByText('Filters are active: clear them to see every collection.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New collection' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await expectQuery({ sort: 'asc' }, SHARED_PATH);
    expect(list.mock.calls.length).toBe(2);
  });

  it('without filters, invites whoever may create to make the first one', async () => {
    serve([]);
    renderCollections({ role: 'uploader', teamMode: 'collaborative' });
    expect(await screen.findByText('No collections yet')).toBeTruthy();
    expect(
      screen.getByText(
        'Create the first collection: contributors then upload their files into it.',
      ),
    ).toBeTruthy();
    // One create button: the bottom bar stays away while the empty state offers it.
    expect(screen.getAllByRole('button', { name: 'New collection' })).toHaveLength(1);
  });

  it('tells anyone else only that there are none', async () => {
    serve([]);
    renderCollections({ role: 'uploader', teamMode: 'controlled' });
    expect(await screen.findByText('No collections yet')).toBeTruthy();
    expect(screen.queryByText(/Create the first collection/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'New collection' })).toBeNull();
  });

  it('offers the bottom bar to a creator while no filter is active', async () => {
    serve();
    renderCollections({ role: 'admin' });
    await screen.findByRole('list', { name: 'Collections' });
    expect(screen.getByRole('button', { name: 'New collection' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Only shared'));
    await vi.waitFor(() =>
      expect(screen.queryByRole('button', { name: 'New collection' })).toBeNull(),
    );
  });

  it('gives no bottom bar to a viewer, and only Download and read marks in the row menu', async () => {
    serve();
    renderCollections({ role: 'viewer' });
    await screen.findByRole('list', { name: 'Collections' });
    expect(screen.queryByRole('button', { name: 'New collection' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Actions for/ }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Download',
      'Mark as unread',
    ]);
  });

  it('shows a failed list translated, and retries', async () => {
    let fail = true;
    fetchMock.mockImplementation(
      fetchWithQuery({
        [`GET ${COLLECTIONS_PATH}`]: () =>
          fail
            ? jsonResponse(403, { statusCode: 403, errorCode: 'forbidden', message: 'x' })
            : jsonResponse(200, listPage([collection({ name: 'Back again' })])),
      }),
    );
    renderCollections();
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Back again')).toBeTruthy();
  });

  it('says "Refreshing…" while it refetches, for at least half a second', async () => {
    // A fetch that takes a moment, as a real one does: an instant answer is never seen pending.
    const list = vi.fn(
      () =>
        new Promise<Response>((resolve) =>
          setTimeout(() => resolve(jsonResponse(200, listPage([collection()]))), 100),
        ),
    );
    fetchMock.mockImplementation(fetchWithQuery({ [`GET ${COLLECTIONS_PATH}`]: list }));
    renderCollections();
    await screen.findByRole('list', { name: 'Collections' });
    expect(screen.queryByText('Refreshing…')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Refreshing…');
    await vi.waitFor(() => expect(list).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(screen.getByText('Refreshing…')).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByText('Refreshing…')).toBeNull(), {
      timeout: 3000,
    });
  });
});
