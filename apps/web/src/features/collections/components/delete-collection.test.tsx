import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, stubMatchMedia } from '../../../test/providers';
import { storeSession } from '../../../test/session-fixtures';
import {
  collection,
  COLLECTIONS_PATH,
  fetchWithQuery,
  listPage,
  renderCollections,
} from '../test-fixtures';

const fetchMock = vi.fn<typeof fetch>();

describe('deleting a collection from the collections view', { timeout: 15_000 }, () => {
  const TARGET = collection({ name: 'Rehearsals', filesCount: 3 });
  const OTHER = collection({ name: 'Concerts' });

  function serve(remove: () => Response = () => new Response(null, { status: 204 })) {
    let current = [TARGET, OTHER];
    const list = vi.fn(() => jsonResponse(200, listPage(current)));
    const deleted = vi.fn(() => {
      const response = remove();
      if (response.ok) current = [OTHER];
      return response;
    });
    fetchMock.mockImplementation(
      fetchWithQuery(
        { [`GET ${COLLECTIONS_PATH}`]: list },
        { [`DELETE ${COLLECTIONS_PATH}/${TARGET.collectionId}`]: deleted },
      ),
    );
    return { list, deleted };
  }

  async function openDelete() {
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Rehearsals' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    return screen.findByRole('dialog', { name: 'Delete “Rehearsals”?' });
  }

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

  it('asks first, naming what goes with it, then deletes it and lists again', async () => {
    const { list, deleted } = serve();
    renderCollections({ role: 'admin' });
    const dialog = await openDelete();
    expect(
      within(dialog).getByText(
        'The collection and its 3 files go to the team’s trash, where owners and admins can restore them until they are deleted for good. The downloads prepared from it are deleted.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('“Rehearsals” has been moved to the trash.')).toBeTruthy();
    expect(deleted).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: 'Rehearsals' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Concerts' })).toBeTruthy();
    await vi.waitFor(() => expect(list).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends nothing when cancelled', async () => {
    const { deleted } = serve();
    renderCollections({ role: 'owner' });
    const dialog = await openDelete();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Rehearsals' })).toBeTruthy();
  });

  it('says why when refused, and keeps the collection listed', async () => {
    serve(() => errorResponse(403, 'forbidden'));
    renderCollections({ role: 'owner' });
    const dialog = await openDelete();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Rehearsals' })).toBeTruthy();
  });

  it('says so when the collection has no file', async () => {
    const empty = collection({ name: 'Rehearsals', filesCount: 0 });
    fetchMock.mockImplementation(
      fetchWithQuery({ [`GET ${COLLECTIONS_PATH}`]: () => jsonResponse(200, listPage([empty])) }),
    );
    renderCollections({ role: 'owner' });
    const dialog = await openDelete();
    expect(
      within(dialog).getByText(
        'The collection goes to the team’s trash, where owners and admins can restore it until it is deleted for good.',
      ),
    ).toBeTruthy();
  });

  it('is not offered to a viewer', async () => {
    serve();
    renderCollections({ role: 'viewer' });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Rehearsals' }));
    expect(screen.getByRole('menuitem', { name: 'Download' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
  });
});
