import { DOWNLOAD_POLL_INTERVAL_MS, PREPARING_DOWNLOAD_TOAST_MS } from '@raccolta/contracts';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, sentRequests, stubMatchMedia } from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import {
  calls,
  COLLECTION_ID,
  download,
  DOWNLOAD_ID,
  DOWNLOAD_PATH,
  DOWNLOADS_PATH,
  fetchMock,
  LINK_PATH,
  PAGE_PATH,
  part,
  readyDownload,
  renderWithDownloads,
  serve,
  SIGNED_URL,
} from '../test/download-fixtures';
import { TRACKED_DOWNLOADS_KEY } from '../utils/tracked-downloads';

const PREPARING =
  'Preparing the download of “Spring concert”… We’ll also e-mail you when it is ready.';

async function tick(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** Past a toast's lifetime: a first step fires its timer, a second ends the exit transition. */
async function pastToast(ms: number) {
  await tick(ms);
  await tick(1000);
}

function toastText(): string | null {
  return screen.queryByRole('alert')?.textContent ?? null;
}

function tracked(): unknown {
  const raw = sessionStorage.getItem(TRACKED_DOWNLOADS_KEY);
  return raw === null ? null : JSON.parse(raw);
}

describe('collection downloads: request and tracking', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    vi.useFakeTimers({ shouldAdvanceTime: true });
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
  });

  it('requests, says it is preparing, polls every 5 s, then Download now starts the file', async () => {
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    let state = download();
    serve({
      [`POST ${DOWNLOADS_PATH}`]: () => jsonResponse(202, download()),
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, state),
      [`GET ${LINK_PATH}`]: () => jsonResponse(200, { url: SIGNED_URL }),
    });
    renderWithDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download Spring concert' }));

    await vi.waitFor(() => expect(toastText()).toBe(PREPARING));
    const [post] = sentRequests(fetchMock);
    expect(post).toMatchObject({ method: 'POST', body: { collectionId: COLLECTION_ID } });
    expect(tracked()).toEqual([
      {
        userId: ADA.sub,
        teamId: TEAM_ID,
        downloadId: DOWNLOAD_ID,
        collectionId: COLLECTION_ID,
        collectionName: 'Spring concert',
      },
    ]);
    // The answer of the request is the first state: the next look is 5 s later. The fake clock
    // also moves with real time (shouldAdvanceTime), so on a busy machine "just before" is a
    // second before, not a tenth.
    expect(calls(DOWNLOAD_PATH)).toHaveLength(0);
    await tick(DOWNLOAD_POLL_INTERVAL_MS - 1000);
    expect(calls(DOWNLOAD_PATH)).toHaveLength(0);
    await tick(1000);
    await vi.waitFor(() => expect(calls(DOWNLOAD_PATH)).toHaveLength(1));

    // The preparing toast lasts its 6 s.
    await pastToast(PREPARING_DOWNLOAD_TOAST_MS - DOWNLOAD_POLL_INTERVAL_MS);
    expect(toastText()).toBeNull();

    state = readyDownload();
    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await vi.waitFor(() =>
      expect(toastText()).toContain('The download of “Spring concert” is ready.'),
    );
    // At 5 s (still preparing) and 10 s (ready).
    const polls = calls(DOWNLOAD_PATH).length;
    expect(polls).toBe(2);
    expect(tracked()).toBeNull();

    // Ready is the end: no more polling, and the toast stays until used or closed.
    await tick(6 * DOWNLOAD_POLL_INTERVAL_MS);
    expect(calls(DOWNLOAD_PATH)).toHaveLength(polls);
    expect(toastText()).toContain('is ready');

    fireEvent.click(screen.getByRole('button', { name: 'Download now' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).href).toBe(SIGNED_URL);
    const [link] = calls(LINK_PATH);
    expect(link?.searchParams.get('localTime')).toMatch(/^\d{8}-\d{6}$/);
    await tick(1000);
    expect(toastText()).toBeNull();
  });

  it('says so when the signed link of Download now fails', async () => {
    serve({
      [`POST ${DOWNLOADS_PATH}`]: () => jsonResponse(202, readyDownload()),
      [`GET ${LINK_PATH}`]: () => errorResponse(410, 'downloadExpired'),
    });
    renderWithDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download Spring concert' }));
    // Ready at once (a small collection): straight to the ready toast.
    fireEvent.click(await screen.findByRole('button', { name: 'Download now' }));
    await vi.waitFor(() => expect(toastText()).toBe('The download could not be started.'));
  });

  it('tells a failed preparation in a toast that offers to try again', async () => {
    let state = download({ status: 'failed' });
    const post = vi.fn(() => jsonResponse(202, download()));
    serve({
      [`POST ${DOWNLOADS_PATH}`]: post,
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, state),
    });
    renderWithDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download Spring concert' }));
    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await vi.waitFor(() =>
      expect(toastText()).toBe('The download of “Spring concert” could not be prepared.Try again'),
    );
    expect(screen.getByRole('alert').className).toContain('Error');
    await tick(4 * DOWNLOAD_POLL_INTERVAL_MS);
    expect(calls(DOWNLOAD_PATH)).toHaveLength(1);

    state = download();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(2));
  });

  it('follows a download in several parts until it is ready, then Open offers each part', async () => {
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    const preparing = download({
      totalParts: 3,
      readyParts: 1,
      parts: [
        part(1),
        part(2, { status: 'inProgress', size: null }),
        part(3, { status: 'inProgress', size: null }),
      ],
    });
    let state = preparing;
    serve({
      [`POST ${DOWNLOADS_PATH}`]: () => jsonResponse(202, download()),
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, state),
      [`GET ${DOWNLOAD_PATH}/parts/2/download`]: () => jsonResponse(200, { url: SIGNED_URL }),
    });
    renderWithDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download Spring concert' }));
    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await vi.waitFor(() =>
      expect(toastText()).toBe(
        '“Spring concert” is large: it will arrive in 3 parts. We’ll tell you when they are ready, here and by e-mail.Open',
      ),
    );
    // Polling goes on while the parts are prepared, and the notice is not repeated.
    await tick(2 * DOWNLOAD_POLL_INTERVAL_MS);
    await vi.waitFor(() => expect(calls(DOWNLOAD_PATH)).toHaveLength(3));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(tracked()).not.toBeNull();

    state = readyDownload({
      totalParts: 3,
      readyParts: 3,
      fileCount: 120,
      parts: [part(1), part(2), part(3)],
    });
    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await vi.waitFor(() =>
      expect(toastText()).toBe('The download of “Spring concert” is ready, in 3 parts.Open'),
    );
    expect(screen.getByRole('alert').className).toContain('Success');
    const polls = calls(DOWNLOAD_PATH).length;
    await tick(4 * DOWNLOAD_POLL_INTERVAL_MS);
    expect(calls(DOWNLOAD_PATH)).toHaveLength(polls);
    expect(tracked()).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await vi.waitFor(() => expect(screen.getByTestId('location').textContent).toBe(PAGE_PATH));
    expect(
      await screen.findByText('All 3 parts are ready: download each one with its button.'),
    ).toBeTruthy();
    // Nothing starts by itself; each part has its button.
    expect(click).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Download part 2 of 3' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).href).toBe(SIGNED_URL);
  });

  it('does not request a collection twice while it is prepared: the toast shows again', async () => {
    const post = vi.fn(() => jsonResponse(202, download()));
    serve({
      [`POST ${DOWNLOADS_PATH}`]: post,
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, download({ totalParts: 1 })),
    });
    renderWithDownloads();
    const button = screen.getByRole('button', { name: 'Download Spring concert' });
    fireEvent.click(button);
    await vi.waitFor(() => expect(toastText()).toBe(PREPARING));
    await pastToast(PREPARING_DOWNLOAD_TOAST_MS);
    expect(toastText()).toBeNull();

    fireEvent.click(button);
    await vi.waitFor(() => expect(toastText()).toBe(PREPARING));
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('shows a refused request as the preparing error with the reason', async () => {
    serve({ [`POST ${DOWNLOADS_PATH}`]: () => errorResponse(400, 'nothingToDownload') });
    renderWithDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download Spring concert' }));
    await vi.waitFor(() =>
      expect(toastText()).toBe(
        'The download of “Spring concert” could not be prepared. There are no files to download.',
      ),
    );
    expect(tracked()).toBeNull();
  });

  it('stops for good when the download is no longer there, with one toast', async () => {
    serve({
      [`POST ${DOWNLOADS_PATH}`]: () => jsonResponse(202, download()),
      [`GET ${DOWNLOAD_PATH}`]: () => errorResponse(404, 'notFound'),
    });
    renderWithDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download Spring concert' }));
    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await vi.waitFor(() =>
      expect(toastText()).toBe(
        'The download of “Spring concert” could not be prepared. Not found.',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await tick(10 * DOWNLOAD_POLL_INTERVAL_MS);
    expect(calls(DOWNLOAD_PATH)).toHaveLength(1);
    expect(toastText()).toBeNull();
    expect(tracked()).toBeNull();
  });

  it('goes on following after a reload, from the tab’s storage', async () => {
    sessionStorage.setItem(
      TRACKED_DOWNLOADS_KEY,
      JSON.stringify([
        {
          userId: ADA.sub,
          teamId: TEAM_ID,
          downloadId: DOWNLOAD_ID,
          collectionId: COLLECTION_ID,
          collectionName: 'Spring concert',
        },
        // Another account's, left in this tab: not this user's business.
        {
          userId: 'someone-else',
          teamId: TEAM_ID,
          downloadId: 'other',
          collectionId: COLLECTION_ID,
          collectionName: 'Not mine',
        },
      ]),
    );
    serve({ [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, readyDownload()) });
    renderWithDownloads();
    await vi.waitFor(() =>
      expect(toastText()).toContain('The download of “Spring concert” is ready.'),
    );
    expect(calls(`${DOWNLOADS_PATH}/other`)).toHaveLength(0);
    expect(tracked()).toBeNull();
  });

  it('leaves the news to the download page when it is the page shown', async () => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    sessionStorage.setItem(
      TRACKED_DOWNLOADS_KEY,
      JSON.stringify([
        {
          userId: ADA.sub,
          teamId: TEAM_ID,
          downloadId: DOWNLOAD_ID,
          collectionId: COLLECTION_ID,
          collectionName: 'Spring concert',
        },
      ]),
    );
    serve({
      [`GET ${DOWNLOAD_PATH}`]: () => jsonResponse(200, readyDownload()),
      [`GET ${LINK_PATH}`]: () => jsonResponse(200, { url: SIGNED_URL }),
    });
    renderWithDownloads(PAGE_PATH);
    expect(await screen.findByText(/The download has started/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download now' })).toBeNull();
    expect(tracked()).toBeNull();
  });
});
