import { DOWNLOAD_POLL_INTERVAL_MS } from '@raccolta/contracts';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, stubMatchMedia } from '../../../test/providers';
import { storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import {
  calls,
  COLLECTION_ID,
  download,
  DOWNLOAD_PATH,
  fetchMock,
  LINK_PATH,
  PAGE_PATH,
  part,
  readyDownload,
  renderWithDownloads,
  serve,
  SIGNED_URL,
} from '../test/download-fixtures';

const COLLECTION_HREF = `/teams/${TEAM_ID}/collections/${COLLECTION_ID}`;
const partLink = (partId: number) => `${DOWNLOAD_PATH}/parts/${String(partId)}/download`;

function threeParts(overrides: Parameters<typeof download>[0] = {}) {
  return download({
    status: 'ready',
    totalParts: 3,
    readyParts: 3,
    fileCount: 120,
    totalBytes: 5_600_000_000,
    parts: [part(1), part(2), part(3, { size: 1_800_000_000 })],
    readyAt: '2025-03-06T10:05:00.000Z',
    expiresAt: '2025-03-09T10:05:00.000Z',
    ...overrides,
  });
}

function spyOnDownloads() {
  return vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
}

describe('download page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    fetchMock.mockReset();
    localStorage.clear();
    sessionStorage.clear();
    document.title = '';
  });

  it('starts a one-part download once, then says it is saved and offers it again', async () => {
    const click = spyOnDownloads();
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, readyDownload()),
      [`GET ${LINK_PATH}`]: () => jsonResponse(200, { url: SIGNED_URL }),
    });
    renderWithDownloads(PAGE_PATH);
    expect(screen.getByRole('status').textContent).toBe('Loading the download…');

    const saved = await screen.findByText(/The download has started/);
    expect(saved.textContent).toMatch(
      /^The download has started: your browser is saving “\d{8}-\d{6} Spring concert\.zip” \(2\.4 MB\) in its downloads folder\.$/,
    );
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).href).toBe(SIGNED_URL);
    expect(calls(LINK_PATH)[0]?.searchParams.get('localTime')).toMatch(/^\d{8}-\d{6}$/);
    expect(document.title).toBe('Download of Spring concert · Raccolta');
    expect(screen.getByRole('heading', { name: 'Download of “Spring concert”' })).toBeTruthy();
    expect(screen.getByText('3 files · 2.5 MB')).toBeTruthy();
    expect(screen.getByText(/^Available until Mar 9, 2025/)).toBeTruthy();
    expect(
      screen
        .getByRole('link', { name: 'Go to the collection “Spring concert”' })
        .getAttribute('href'),
    ).toBe(COLLECTION_HREF);

    fireEvent.click(screen.getByRole('button', { name: 'Download again' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    expect(calls(LINK_PATH)).toHaveLength(2);
  });

  it('shows a link that cannot be had, with a retry', async () => {
    const click = spyOnDownloads();
    let fail = true;
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, readyDownload()),
      [`GET ${LINK_PATH}`]: () =>
        fail ? errorResponse(503, 'noConnection') : jsonResponse(200, { url: SIGNED_URL }),
    });
    renderWithDownloads(PAGE_PATH);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'The download could not be started. Unable to connect to the server',
    );
    expect(click).not.toHaveBeenCalled();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/The download has started/)).toBeTruthy();
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('follows a download being prepared every 5 s, then starts it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const click = spyOnDownloads();
    let state = download({ totalParts: 1 });
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, state),
      [`GET ${LINK_PATH}`]: () => jsonResponse(200, { url: SIGNED_URL }),
    });
    renderWithDownloads(PAGE_PATH);
    expect(await screen.findByRole('heading', { name: 'Preparing the download' })).toBeTruthy();
    expect(screen.getByText(/This page updates by itself/)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Preparation progress' })).toBeTruthy();
    expect(calls(DOWNLOAD_PATH)).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(DOWNLOAD_POLL_INTERVAL_MS));
    expect(calls(DOWNLOAD_PATH)).toHaveLength(2);
    expect(click).not.toHaveBeenCalled();

    state = readyDownload();
    await act(() => vi.advanceTimersByTimeAsync(DOWNLOAD_POLL_INTERVAL_MS));
    expect(await screen.findByText(/The download has started/)).toBeTruthy();
    expect(click).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(4 * DOWNLOAD_POLL_INTERVAL_MS));
    expect(calls(DOWNLOAD_PATH)).toHaveLength(3);
  });

  it('lists the parts of a large download, each with its own button', async () => {
    const click = spyOnDownloads();
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, threeParts()),
      [`GET ${partLink(2)}`]: () => jsonResponse(200, { url: `${SIGNED_URL}-2` }),
    });
    renderWithDownloads(PAGE_PATH);
    const list = await screen.findByRole('list', { name: 'Parts of the download' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Part 1 of 3' + '1.9 GB · 40 files' + 'Download',
      'Part 2 of 3' + '1.9 GB · 40 files' + 'Download',
      'Part 3 of 3' + '1.8 GB · 40 files' + 'Download',
    ]);
    // Browsers refuse several downloads started without a click: nothing starts by itself.
    expect(click).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Download part 2 of 3' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).href).toBe(`${SIGNED_URL}-2`);
    expect(calls(partLink(2))[0]?.searchParams.get('localTime')).toMatch(/^\d{8}-\d{6}$/);
    expect(await within(rows[1] as HTMLElement).findByText('Started')).toBeTruthy();
    expect(calls(LINK_PATH)).toHaveLength(0);
  });

  it('starts the part named in the address, and offers ready parts while others are prepared', async () => {
    const click = spyOnDownloads();
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () =>
        jsonResponse(
          200,
          threeParts({
            status: 'inProgress',
            readyParts: 1,
            readyAt: null,
            expiresAt: null,
            parts: [part(1), part(2, { status: 'inProgress', size: null })],
          }),
        ),
      [`GET ${partLink(1)}`]: () => jsonResponse(200, { url: `${SIGNED_URL}-1` }),
    });
    renderWithDownloads(`${PAGE_PATH}?part=1`);
    expect(await screen.findByText('Parts ready: 1 of 3')).toBeTruthy();
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).href).toBe(`${SIGNED_URL}-1`);

    const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
    expect(button('Download part 1 of 3').disabled).toBe(false);
    expect(button('Download part 2 of 3').disabled).toBe(true);
    // Planned but not listed yet: in progress too.
    expect(button('Download part 3 of 3').disabled).toBe(true);
    expect(screen.getAllByText('Being prepared…')).toHaveLength(2);
  });

  it('explains a failed download and leads to the collection to request it again', async () => {
    serve({ [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, download({ status: 'failed' })) });
    renderWithDownloads(PAGE_PATH);
    expect(await screen.findByText('The download could not be prepared')).toBeTruthy();
    expect(screen.getByText(/Request the download again from the collection/)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Open the collection' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(COLLECTION_HREF),
    );
  });

  it('explains an expired download with the date its files went', async () => {
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () =>
        jsonResponse(
          200,
          readyDownload({ status: 'expired', expiresAt: '2025-03-09T10:01:00.000Z' }),
        ),
    });
    renderWithDownloads(PAGE_PATH);
    expect(await screen.findByText('This download has expired')).toBeTruthy();
    expect(screen.getByText(/^Its files were deleted on Mar 9, 2025/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the collection' }).getAttribute('href')).toBe(
      COLLECTION_HREF,
    );
    expect(calls(LINK_PATH)).toHaveLength(0);
  });

  it('says clearly when the download is not there or not the user’s, with a way home', async () => {
    serve({ [`GET ${DOWNLOAD_PATH}`]: () => errorResponse(404, 'notFound') });
    renderWithDownloads(PAGE_PATH);
    expect(await screen.findByRole('heading', { name: 'Download not found' })).toBeTruthy();
    expect(screen.getByText(/only the person who requested a download can open it/)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to home' }));
    await vi.waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(calls(DOWNLOAD_PATH)).toHaveLength(1);
  });

  it('offers a retry when the download cannot be loaded for another reason', async () => {
    let fail = true;
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () =>
        fail ? errorResponse(500, 'generic') : jsonResponse(200, download({ status: 'failed' })),
    });
    renderWithDownloads(PAGE_PATH);
    expect(await screen.findByText('An error occurred')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The download could not be prepared')).toBeTruthy();
  });
});
