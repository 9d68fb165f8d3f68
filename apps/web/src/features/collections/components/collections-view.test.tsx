import type { Collection } from '@raccolta/contracts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubMatchMedia } from '../../../test/providers';
import { storeSession } from '../../../test/session-fixtures';
import {
  ADA_REF,
  BEA_REF,
  CARLO_REF,
  collection,
  COLLECTIONS_PATH,
  expectLastQuery,
  listQueries,
  MINE_PATH,
  renderCollections,
  serveCollections,
  SHARED_PATH,
} from '../test-fixtures';

const fetchMock = vi.fn<typeof fetch>();
const serve = (collections?: Collection[], second?: Collection[]) =>
  serveCollections(fetchMock, collections, second);
const expectQuery = (expected: Record<string, string>, path?: string) =>
  expectLastQuery(fetchMock, expected, path);
const lastQuery = (path = COLLECTIONS_PATH) => listQueries(fetchMock, path).at(-1);

describe('collections view', { timeout: 15_000 }, () => {
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

  it('shows a row with owner, date, files, tags, unread marker and shared chip', async () => {
    const tags = [
      BEA_REF,
      CARLO_REF,
      ...[1, 2, 3, 4, 5].map((n) => ({
        ...BEA_REF,
        userId: `0195f0c2-7c1a-7000-8000-00000000099${n}`,
        nickname: `T${n}`,
      })),
    ];
    serve([
      collection({
        name: 'Spring concert',
        mode: 'collaborative',
        readAt: null,
        filesCount: 1,
        owner: BEA_REF,
        taggedMembers: tags,
      }),
      collection({ name: 'Rehearsals' }),
    ]);
    renderCollections();
    const list = await screen.findByRole('list', { name: 'Collections' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByRole('link', { name: 'Spring concert' }).getAttribute('href')).toMatch(
      /^\/teams\/choir\/collections\/[0-9a-f-]{36}$/,
    );
    expect(first.getByRole('img', { name: 'Unread' })).toBeTruthy();
    expect(first.getByText('Shared')).toBeTruthy();
    expect(first.queryByText('Private')).toBeNull();
    const updated = first.getByText('Mar 6, 2025');
    expect(updated.getAttribute('title')).toBe('Updated Mar 6, 2025');
    expect(updated.getAttribute('datetime')).toBe('2025-03-06T10:00:00.000Z');
    expect(first.getByText('1 file')).toBeTruthy();
    expect(first.getByRole('button', { name: 'Show the collections created by Bea' })).toBeTruthy();
    expect(
      first.getAllByRole('button', { name: /^Show the collections tagged with/ }),
    ).toHaveLength(5);
    expect(first.getByText('+2')).toBeTruthy();

    const second = within(rows[1] as HTMLElement);
    expect(second.queryByRole('img', { name: 'Unread' })).toBeNull();
    expect(second.queryByText('Shared')).toBeNull();
    expect(second.getByText('Private')).toBeTruthy();
    expect(second.getByText('3 files')).toBeTruthy();
  });

  it('opens the collection from its row', async () => {
    const target = collection({ name: 'Spring concert' });
    serve([target]);
    const { router } = renderCollections();
    fireEvent.click(await screen.findByRole('link', { name: 'Spring concert' }));
    expect(await screen.findByText('Files screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/teams/choir/collections/${target.collectionId}`);
  });

  it('asks for 20 by updated date, newest first, and loads the next page', async () => {
    const list = serve([collection({ name: 'First page' })], [collection({ name: 'Second page' })]);
    renderCollections();
    await screen.findByText('First page');
    await expectQuery({});
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Second page')).toBeTruthy();
    expect(screen.getByText('First page')).toBeTruthy();
    expect(list).toHaveBeenCalledTimes(2);
    expect(lastQuery()?.get('lastKey')).toBe('page-2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters by creator and tag from a row, and the chips remove them', async () => {
    serve([collection({ owner: BEA_REF, taggedMembers: [CARLO_REF] })]);
    const { router } = renderCollections();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Show the collections created by Bea' }),
    );
    await expectQuery({ member: BEA_REF.userId });
    expect(screen.getByRole('button', { name: 'Created by: Bea' })).toBeTruthy();

    fireEvent.click(
      await screen.findByRole('button', { name: 'Show the collections tagged with Carlo' }),
    );
    await expectQuery({ member: BEA_REF.userId, tagged: CARLO_REF.userId });
    expect(router.state.location.search).toBe(
      `?member=${BEA_REF.userId}&tagged=${CARLO_REF.userId}`,
    );

    // A chip's delete key, as the keyboard removes it.
    fireEvent.keyUp(screen.getByRole('button', { name: 'Created by: Bea' }), { key: 'Delete' });
    await expectQuery({ tagged: CARLO_REF.userId });
    expect(screen.queryByRole('button', { name: /^Created by/ })).toBeNull();
  });

  it('sends the collaborative view, the sort order and the date range', async () => {
    serve();
    const { router } = renderCollections({ search: '?from=1714521600000&to=1717199999999' });
    await expectQuery({ from: '1714521600000', to: '1717199999999' });
    fireEvent.click(screen.getByLabelText('Only shared'));
    await expectQuery({ from: '1714521600000', to: '1717199999999', view: 'collaborative' });
    fireEvent.click(screen.getByRole('button', { name: 'Sort order: Newest first' }));
    await expectQuery({
      from: '1714521600000',
      to: '1717199999999',
      view: 'collaborative',
      sort: 'asc',
    });
    expect(screen.getByRole('button', { name: 'Sort order: Oldest first' })).toBeTruthy();
    expect(router.state.location.search).toBe(
      '?view=collaborative&from=1714521600000&to=1717199999999&sort=asc',
    );
  });

  it('clears a date with its field and holds the list while from is after to', async () => {
    serve();
    renderCollections({ search: '?from=1717199999999&to=1714521600000' });
    expect(
      (await screen.findAllByText('The start date cannot be after the end date')).length,
    ).toBeGreaterThan(1);
    expect(listQueries(fetchMock, COLLECTIONS_PATH)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Clear the start date' }));
    await expectQuery({ to: '1714521600000' });
  });

  it('ignores parameters it cannot read', async () => {
    serve();
    renderCollections({ search: '?member=bea&tagged=1&view=all-of-it&from=soon&sort=sideways' });
    await expectQuery({});
    expect(screen.queryByRole('button', { name: /^Created by|^Tagged/ })).toBeNull();
  });

  it('lists Mine and Shared from their own paths, without creator or view', async () => {
    serve();
    const { router } = renderCollections({
      search: `?member=${BEA_REF.userId}&tagged=${CARLO_REF.userId}`,
    });
    await expectQuery({ member: BEA_REF.userId, tagged: CARLO_REF.userId });
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');

    fireEvent.click(screen.getByRole('tab', { name: 'Mine' }));
    await expectQuery({ tagged: CARLO_REF.userId }, MINE_PATH);
    expect(router.state.location.search).toBe(`?tab=mine&tagged=${CARLO_REF.userId}`);

    fireEvent.click(screen.getByRole('tab', { name: 'Shared' }));
    await expectQuery({ tagged: CARLO_REF.userId }, SHARED_PATH);
    const collaborative = screen.getByLabelText<HTMLInputElement>('Only shared');
    expect(collaborative.checked).toBe(true);
    expect(collaborative.disabled).toBe(true);

    // Back returns to the previous view.
    await router.navigate(-1);
    await vi.waitFor(() =>
      expect(router.state.location.search).toBe(`?tab=mine&tagged=${CARLO_REF.userId}`),
    );
  });

  it('shows everything again when the title is clicked', async () => {
    serve();
    const { router } = renderCollections({
      search: `?tab=mine&tagged=${CARLO_REF.userId}&from=1714521600000&sort=asc`,
    });
    await expectQuery({ tagged: CARLO_REF.userId, from: '1714521600000', sort: 'asc' }, MINE_PATH);
    expect(screen.getByRole('heading', { name: 'Collections' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Collections' }));
    await expectQuery({});
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
  });

  it('names a filter member it has no row of from their member record', async () => {
    serve([collection({ owner: ADA_REF })]);
    renderCollections({ search: `?tagged=${BEA_REF.userId}` });
    expect(await screen.findByRole('button', { name: 'Tagged: Bea' })).toBeTruthy();
  });
});
