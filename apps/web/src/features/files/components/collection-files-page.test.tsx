import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubMatchMedia } from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import {
  BEA,
  collection,
  COLLECTION_PATH,
  errorResponse,
  fetchMock,
  jsonResponse,
  fileItem,
  listQueries,
  PAGE_PATH,
  renderFilesPage,
  serve,
  stubDesktop,
} from '../test/files-fixtures';

const PHOTO = fileItem({
  name: 'choir-photo.jpg',
  thumbnailUrl: 'https://cdn.example/thumb/photo.webp',
  previewUrl: 'https://cdn.example/preview/photo.webp',
  readAt: null,
});
const SCORE = fileItem({ name: 'score.pdf', contentType: 'application/pdf' });
const ARCHIVE = fileItem({ name: 'recordings.zip', contentType: 'application/zip' });
const SHEET = fileItem({
  name: 'budget.xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
});
const NOTES = fileItem({ name: 'notes.txt', contentType: 'text/plain' });

function lastQuery(): URLSearchParams {
  const queries = listQueries();
  const last = queries.at(-1);
  if (last === undefined) throw new Error('no file list was requested');
  return last;
}

describe('files screen', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubDesktop();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    document.title = '';
  });

  it('shows the collection and its files with a thumbnail or the icon of their kind', async () => {
    serve({ files: [PHOTO, SCORE, ARCHIVE, SHEET, NOTES] });
    renderFilesPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring concert' })).toBeTruthy();
    await screen.findByText('score.pdf');
    expect(document.title).toBe('Spring concert · Raccolta');

    const table = screen.getByRole('table', { name: 'Files of Spring concert' });
    const photoRow = within(table).getByText('choir-photo.jpg').closest('tr');
    const thumbnail = photoRow?.querySelector('img');
    expect(thumbnail?.getAttribute('src')).toBe(PHOTO.thumbnailUrl);
    expect(thumbnail?.getAttribute('loading')).toBe('lazy');
    expect(thumbnail?.getAttribute('alt')).toBe('');

    const kindOf = (name: string) => {
      const row = within(table).getByText(name).closest('tr');
      return row === null ? null : within(row).getByRole('img').getAttribute('aria-label');
    };
    expect(kindOf('score.pdf')).toBe('PDF document');
    expect(kindOf('recordings.zip')).toBe('Compressed archive');
    expect(kindOf('budget.xlsx')).toBe('Document');
    expect(kindOf('notes.txt')).toBe('File');

    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Uploaded by', 'Updatednewest first', 'Actions']);
    expect(within(table).getAllByText('Bea')).toHaveLength(5);
    expect(screen.getByRole('link', { name: 'Collections' }).getAttribute('href')).toBe(
      '/teams/choir',
    );
  });

  it('asks again while a new upload waits for its thumbnail, and shows it without a reload', async () => {
    const fresh = fileItem({ name: 'just-uploaded.jpg', renditionStatus: 'pending' });
    const list = serve({ files: [fresh, NOTES] });
    list.mockImplementation(() =>
      jsonResponse(200, {
        files:
          list.mock.calls.length < 2
            ? [fresh, NOTES]
            : [
                {
                  ...fresh,
                  renditionStatus: 'ready',
                  thumbnailUrl: 'https://cdn.example/thumb/fresh.webp',
                },
                NOTES,
              ],
        pagination: { lastKey: null },
      }),
    );
    renderFilesPage();
    const name = await screen.findByText('just-uploaded.jpg');
    const row = name.closest('tr');
    if (row === null) throw new Error('row missing');
    expect(row.querySelector('img')).toBeNull();
    await vi.waitFor(
      () =>
        expect(row.querySelector('img')?.getAttribute('src')).toBe(
          'https://cdn.example/thumb/fresh.webp',
        ),
      { timeout: 6000 },
    );
    const asked = list.mock.calls.length;
    expect(asked).toBe(2);
    // Nothing waits any more: no further asks.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(list.mock.calls.length).toBe(asked);
  });

  it("shows a file sent through an upload link as the guest's, not as its maker's", async () => {
    const guestFile = fileItem({
      name: 'from-anna.jpg',
      guest: { linkId: '0195f0c2-7c1a-7000-8000-0000000000aa', name: 'Anna', email: null },
    });
    const unnamed = fileItem({
      name: 'from-someone.jpg',
      guest: { linkId: '0195f0c2-7c1a-7000-8000-0000000000aa', name: null, email: null },
    });
    serve({ files: [guestFile, unnamed, SCORE] });
    renderFilesPage();
    const table = await screen.findByRole('table', { name: 'Files of Spring concert' });
    const rowOf = (name: string) => {
      const row = within(table).getByText(name).closest('tr');
      if (row === null) throw new Error(`${name}: no row`);
      return row;
    };
    expect(within(rowOf('from-anna.jpg')).getByText('Guest: Anna')).toBeTruthy();
    expect(within(rowOf('from-anna.jpg')).queryByText('Bea')).toBeNull();
    expect(within(rowOf('from-someone.jpg')).getByText('Guest')).toBeTruthy();
    expect(within(rowOf('score.pdf')).getByText('Bea')).toBeTruthy();
  });

  it('filters by a guest through their upload link, with chips to remove each', async () => {
    const LINK = '0195f0c2-7c1a-7000-8000-0000000000aa';
    const guestFile = fileItem({
      name: 'from-anna.jpg',
      guest: { linkId: LINK, name: 'Anna', email: null },
    });
    serve({ files: [guestFile, SCORE] });
    const { router } = renderFilesPage();
    await screen.findByRole('table', { name: 'Files of Spring concert' });
    const [byGuest] = screen.getAllByRole('button', { name: 'Show only the files of Guest: Anna' });
    if (!byGuest) throw new Error('no guest button');
    fireEvent.click(byGuest);
    await waitFor(() => expect(router.state.location.search).toBe(`?link=${LINK}&guest=Anna`));
    await waitFor(() => {
      const last = listQueries().at(-1);
      expect(last?.get('link')).toBe(LINK);
      expect(last?.get('guest')).toBe('Anna');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove the filter Guest: Anna' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?link=${LINK}`));
    expect(screen.getByText('Through one upload link')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove the upload link filter' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('sets unread files apart: a bold name and a dot named Unread', async () => {
    serve({ files: [PHOTO, SCORE] });
    renderFilesPage();
    const unreadName = await screen.findByText('choir-photo.jpg');
    const readName = screen.getByText('score.pdf');
    const unreadRow = unreadName.closest('tr');
    const readRow = readName.closest('tr');
    if (unreadRow === null || readRow === null) throw new Error('rows missing');
    expect(unreadRow.dataset.unread).toBe('true');
    expect(within(unreadRow).getByRole('img', { name: 'Unread' })).toBeTruthy();
    expect(readRow.dataset.unread).toBeUndefined();
    expect(within(readRow).queryByRole('img', { name: 'Unread' })).toBeNull();
    expect(getComputedStyle(unreadName).fontWeight).toBe('700');
    expect(getComputedStyle(readName).fontWeight).toBe('400');
  });

  it('asks for the newest first, then sorts, filters by uploader and shows Mine', async () => {
    serve({ files: [PHOTO, SCORE] });
    const { router } = renderFilesPage();
    await screen.findByText('score.pdf');
    expect(lastQuery().get('sort')).toBe('desc');
    expect(lastQuery().get('limit')).toBe('20');
    expect(lastQuery().has('creator')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: /^Updated/ }));
    await vi.waitFor(() => expect(lastQuery().get('sort')).toBe('asc'));
    expect(router.state.location.search).toBe('?sort=asc');

    const [uploader] = screen.getAllByRole('button', {
      name: 'Show only the files uploaded by Bea',
    });
    if (uploader === undefined) throw new Error('no uploader button');
    fireEvent.click(uploader);
    await vi.waitFor(() => expect(lastQuery().get('creator')).toBe(BEA.userId));
    const chip = await screen.findByRole('button', {
      name: 'Uploaded by Bea: remove this filter',
    });
    expect(new URLSearchParams(router.state.location.search).get('creator')).toBe(BEA.userId);

    // The unfiltered list of this order is cached from before: nothing new is asked.
    fireEvent.click(chip);
    await vi.waitFor(() => expect(router.state.location.search).toBe('?sort=asc'));
    expect(screen.queryByRole('button', { name: /remove this filter/ })).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Mine' }));
    await vi.waitFor(() => expect(lastQuery().get('creator')).toBe(ADA.sub));
    expect(screen.getByRole('tab', { name: 'Mine' }).getAttribute('aria-selected')).toBe('true');
    expect(router.state.location.search).toBe('?view=mine&sort=asc');

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
  });

  it('reads the date filter from the address and sends it; a reversed range sends nothing', async () => {
    serve({ files: [SCORE] });
    renderFilesPage(`${PAGE_PATH}?from=1741132800000&to=1741219199999&creator=${BEA.userId}`);
    await screen.findByText('score.pdf');
    expect(lastQuery().get('from')).toBe('1741132800000');
    expect(lastQuery().get('to')).toBe('1741219199999');
    expect(lastQuery().get('creator')).toBe(BEA.userId);
    expect(
      await screen.findByRole('button', { name: 'Uploaded by Bea: remove this filter' }),
    ).toBeTruthy();
    cleanup();

    fetchMock.mockClear();
    serve({ files: [SCORE] });
    renderFilesPage(`${PAGE_PATH}?from=1741219199999&to=1741132800000`);
    expect(
      await screen.findByText(
        'The start date is after the end date: correct the dates to see the files.',
      ),
    ).toBeTruthy();
    expect(listQueries()).toHaveLength(0);
  });

  it('sends the day picked in the date filter as from', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 20, 12, 0));
    try {
      serve({ files: [SCORE] });
      renderFilesPage();
      await screen.findByText('score.pdf');
      fireEvent.click(screen.getByRole('button', { name: 'Choose the start date' }));
      const dialog = await screen.findByRole('dialog', { name: 'From' });
      fireEvent.click(within(dialog).getByRole('gridcell', { name: '3' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
      const from = String(new Date(2025, 2, 3).getTime());
      await vi.waitFor(() => expect(lastQuery().get('from')).toBe(from));
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives each role its actions: a viewer downloads, an uploader uploads', async () => {
    serve({ role: 'viewer', files: [SCORE] });
    renderFilesPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for score.pdf' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Download',
      'Mark as unread',
    ]);
    expect(screen.queryByRole('button', { name: 'Upload files' })).toBeNull();
    cleanup();

    serve({ role: 'uploader', files: [SCORE], collection: collection({ createdBy: BEA.userId }) });
    renderFilesPage();
    expect(await screen.findByRole('button', { name: 'Upload files' })).toBeTruthy();
    expect(screen.getByLabelText('Upload files', { selector: 'input' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for score.pdf' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Mark as unread',
    ]);
  });

  it('shows the empty states: with filters a clear button, without files an upload hint', async () => {
    serve({ files: [] });
    renderFilesPage(`${PAGE_PATH}?creator=${BEA.userId}`);
    expect(await screen.findByText('No files match these filters')).toBeTruthy();
    const clearButtons = screen.getAllByRole('button', { name: 'Clear filters' });
    expect(clearButtons).toHaveLength(2);
    fireEvent.click(clearButtons[1] as HTMLElement);
    expect(await screen.findByText('No files yet')).toBeTruthy();
    expect(
      screen.getByText('Upload files with the Upload files button, or drop them here.'),
    ).toBeTruthy();
    cleanup();

    serve({ role: 'viewer', files: [] });
    renderFilesPage();
    expect(await screen.findByText('No files yet')).toBeTruthy();
    expect(
      screen.getByText('The files uploaded to this collection will appear here.'),
    ).toBeTruthy();
  });

  it('shows a failed list with a retry', async () => {
    const list = serve();
    list.mockImplementationOnce(() => errorResponse(403, 'forbidden'));
    renderFilesPage();
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No files yet')).toBeTruthy();
  });

  it('sends a collection that answers 4xx to /404', async () => {
    serve({ handlers: { [`GET ${COLLECTION_PATH}`]: () => errorResponse(404, 'notFound') } });
    const { router } = renderFilesPage();
    expect(await screen.findByText('Page not found')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
  });

  it('fits a phone: uploader and date under the name, no separate columns', async () => {
    stubMatchMedia();
    serve({ files: [SCORE] });
    renderFilesPage();
    const table = await screen.findByRole('table');
    await within(table).findByText('score.pdf');
    expect(within(table).getAllByRole('columnheader')).toHaveLength(1);
    expect(within(table).getByRole('button', { name: /^Updated/ })).toBeTruthy();
    const row = within(table).getByText('score.pdf').closest('tr');
    if (row === null) throw new Error('row missing');
    expect(within(row).getAllByRole('cell')).toHaveLength(2);
    expect(within(row).getByText('Bea')).toBeTruthy();
  });

  it('folds the date filter away on a phone behind a Filters toggle, open when dates are set', async () => {
    stubMatchMedia();
    serve({ files: [SCORE] });
    renderFilesPage();
    await screen.findByText('score.pdf');
    expect(screen.queryByRole('button', { name: 'Choose the start date' })).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Filters' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(await screen.findByRole('button', { name: 'Choose the start date' })).toBeTruthy();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    cleanup();

    serve({ files: [SCORE] });
    renderFilesPage(`${PAGE_PATH}?from=1741132800000`);
    await screen.findByText('score.pdf');
    expect(screen.getByRole('button', { name: 'Filters (dates set)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose the start date' })).toBeTruthy();
  });
});
