import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { jsonResponse, sentRequests, stubMatchMedia } from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import { fileItem } from '../../files/test/files-fixtures';
import { FakeTusServer } from '../test/fake-tus-server';
import { fakeXhrFor } from '../test/fake-xhr';
import {
  choose,
  COLLECTION_ID,
  COLLECTION_PATH,
  fetchMock,
  FILES_PATH,
  goOnline,
  photo,
  renderUploadApp,
  SCREEN_PATH,
  serveUploadApp,
  UPLOADS_PATH,
} from '../test/upload-fixtures';
import { fingerprintOf, uploadScope } from '../utils/upload-storage';

function listRows() {
  return within(screen.getByRole('list', { name: 'Files being uploaded' })).getAllByRole(
    'listitem',
  );
}

describe('upload screen', () => {
  let server: FakeTusServer;

  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('scrollTo', vi.fn());
    server = new FakeTusServer();
    vi.stubGlobal('XMLHttpRequest', fakeXhrFor(server));
    storeSession();
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    goOnline(true);
    localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('opens the camera for photos and a picker for any files, several at once', async () => {
    serveUploadApp();
    renderUploadApp(SCREEN_PATH);
    expect(await screen.findByRole('heading', { name: 'Spring concert' })).toBeTruthy();
    const camera = screen.getByLabelText('Take photos', { selector: 'input' });
    expect(camera.getAttribute('accept')).toBe('image/*');
    expect(camera.getAttribute('capture')).toBe('environment');
    expect(camera.hasAttribute('multiple')).toBe(true);
    const files = screen.getByLabelText('Choose files', { selector: 'input' });
    expect(files.hasAttribute('accept')).toBe(false);
    expect(files.hasAttribute('multiple')).toBe(true);
    expect(
      screen.getByRole('link', { name: 'Open this collection in the team app' }),
    ).toHaveProperty('pathname', `/teams/choir/collections/${COLLECTION_ID}`);
  });

  it('lists what the user uploaded here, asking for their files only', async () => {
    serveUploadApp({ files: [fileItem({ name: 'stage.jpg', uploadedBy: ADA.sub })] });
    renderUploadApp(SCREEN_PATH);
    const mine = await screen.findByRole('list', { name: 'Your files in Spring concert' });
    expect(within(mine).getByText('stage.jpg')).toBeTruthy();
    const query = fetchMock.mock.calls
      .map(([input]) => new URL(typeof input === 'string' ? input : '', 'http://localhost'))
      .find((url) => url.pathname.endsWith(FILES_PATH));
    expect(query?.searchParams.get('creator')).toBe(ADA.sub);
  });

  it('uploads with tus, shows the progress, then the files in the list', async () => {
    const list = serveUploadApp();
    renderUploadApp(SCREEN_PATH);
    await screen.findByRole('heading', { name: 'Spring concert' });
    const calls = list.mock.calls.length;
    choose('Choose files', [photo('a.jpg', 3000), photo('b.jpg', 1000)]);

    expect(await screen.findByText('2 of 2 uploaded')).toBeTruthy();
    expect(screen.getByText('4 kB of 4 kB')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Progress of all the uploads' })).toBeTruthy();
    const creations = server.requests.filter((request) => request.method === 'POST');
    expect(creations.map((request) => request.url)).toEqual([
      `${window.location.origin}/api${UPLOADS_PATH}`,
      `${window.location.origin}/api${UPLOADS_PATH}`,
    ]);
    expect(creations[0]?.headers.Authorization).toMatch(/^Bearer access-/);
    // The file list is asked again once a file is in.
    await vi.waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(calls));
  });

  it('translates a refusal and offers no retry where none can help', async () => {
    server.interceptor = (request) =>
      request.method === 'PATCH'
        ? {
            status: 415,
            body: JSON.stringify({
              statusCode: 415,
              errorCode: 'fileTypeNotAllowed',
              message: 'Not allowed',
            }),
          }
        : null;
    serveUploadApp();
    renderUploadApp(SCREEN_PATH);
    await screen.findByRole('heading', { name: 'Spring concert' });
    choose('Choose files', [photo('virus.exe', 100)]);
    expect(await screen.findByText('Files of this type cannot be uploaded here.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry the upload of virus.exe' })).toBeNull();
    expect(screen.getByText('0 of 1 uploaded · 1 failed')).toBeTruthy();

    // Cancelled: gone from the list and from the server.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the upload of virus.exe' }));
    await vi.waitFor(() => expect(screen.queryByText('virus.exe')).toBeNull());
  });

  it('sends an admin whose team asks for a second factor to add one, not to retry', async () => {
    const refusal = () =>
      jsonResponse(403, {
        statusCode: 403,
        errorCode: 'secondFactorEnrolmentRequired',
        message: 'Second factor required',
      });
    serveUploadApp({
      role: 'admin',
      handlers: {
        [`GET /teams/${TEAM_ID}/collections`]: refusal,
        [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: refusal,
      },
    });
    const { unmount } = renderUploadApp('/upload/teams/choir');
    expect(await screen.findByText('This team asks you for a second factor')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add one' }).getAttribute('href')).toBe('/profile');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    unmount();

    // A link straight to a collection says the same, not "not found".
    serveUploadApp({
      role: 'admin',
      handlers: {
        [`GET ${COLLECTION_PATH}`]: refusal,
        [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: refusal,
      },
    });
    renderUploadApp(SCREEN_PATH);
    expect(await screen.findByText('This team asks you for a second factor')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add one' }).getAttribute('href')).toBe('/profile');
  });

  it('shows the offline notice, pauses, and resumes by itself when the connection is back', async () => {
    server.interceptor = (request) => (request.method === 'PATCH' ? 'hold' : null);
    serveUploadApp();
    renderUploadApp(SCREEN_PATH);
    await screen.findByRole('heading', { name: 'Spring concert' });
    choose('Take photos', [photo('stage.jpg', 2000)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));

    goOnline(false);
    expect(
      await screen.findByText(
        'You are offline. Uploads pause and continue by themselves when the connection is back.',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('Paused at 0%: no connection')).toBeTruthy();
    server.held[0]?.fail();

    server.interceptor = null;
    goOnline(true);
    expect(await screen.findByText('1 of 1 uploaded')).toBeTruthy();
    expect(screen.queryByText(/You are offline/)).toBeNull();
    expect(server.requests.map((request) => request.method)).toEqual([
      'POST',
      'PATCH',
      'HEAD',
      'PATCH',
    ]);
    expect(listRows()[0]?.textContent).toContain('Uploaded');
  });

  it('goes on uploading while the user looks at the team app', async () => {
    server.interceptor = (request) => (request.method === 'PATCH' ? 'hold' : null);
    serveUploadApp();
    const { router } = renderUploadApp(SCREEN_PATH);
    await screen.findByRole('heading', { name: 'Spring concert' });
    choose('Choose files', [photo('stage.jpg', 2000)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));

    await act(() => router.navigate('/profile'));
    server.interceptor = null;
    server.held[0]?.release();
    await vi.waitFor(() => expect(server.uploads.values().next().value?.offset).toBe(2000));

    await act(() => router.navigate(SCREEN_PATH));
    expect(await screen.findByText('1 of 1 uploaded')).toBeTruthy();
  });

  it('after a reload, lists the interrupted upload and resumes it when the same file is chosen', async () => {
    // What an earlier visit left: the upload on the server, half done, and tus's storage entry.
    const file = photo('concert.jpg', 4000);
    const uploadId = '0195f0c2-7c1a-7000-8000-00000000aaaa';
    server.uploads.set(uploadId, { length: 4000, offset: 1000, metadata: '' });
    const uploadUrl = `${window.location.origin}/api${UPLOADS_PATH}/${uploadId}`;
    const fingerprint = fingerprintOf(uploadScope(ADA.sub, COLLECTION_ID), file);
    localStorage.setItem(
      `tus::${fingerprint}::42`,
      JSON.stringify({
        size: 4000,
        metadata: { filename: 'concert.jpg', filetype: 'image/jpeg' },
        creationTime: new Date().toString(),
        uploadUrl,
      }),
    );
    serveUploadApp({
      handlers: {
        [`HEAD ${UPLOADS_PATH}/${uploadId}`]: () =>
          new Response(null, {
            status: 200,
            headers: { 'Upload-Offset': '1000', 'Upload-Expires': 'Wed, 02 Jan 2030 12:00:00 GMT' },
          }),
      },
    });
    renderUploadApp(SCREEN_PATH);

    const section = await screen.findByRole('region', { name: 'Interrupted uploads' });
    expect(within(section).getByText('concert.jpg')).toBeTruthy();
    expect(await within(section).findByText(/1 kB of 4 kB uploaded/)).toBeTruthy();
    expect(within(section).getByText(/^Can be resumed until 1\/2\/30/)).toBeTruthy();
    expect(within(section).getByText(/Choose the same file again and it continues/)).toBeTruthy();
    const head = sentRequests(fetchMock).find((request) => request.method === 'HEAD');
    expect(head?.headers).toMatchObject({ 'Tus-Resumable': '1.0.0' });

    choose('Choose files', [file]);
    expect(await screen.findByText('1 of 1 uploaded')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Interrupted uploads' })).toBeNull();
    // No new upload: the server was asked where it was, and only the rest was sent.
    expect(server.requests.map((request) => request.method)).toEqual(['HEAD', 'PATCH']);
    expect(server.requests[1]?.headers['Upload-Offset']).toBe('1000');
    expect(server.requests[1]?.bodySize).toBe(3000);
    expect(localStorage.getItem(`tus::${fingerprint}::42`)).toBeNull();
  });

  it('discards an interrupted upload: deleted on the server and forgotten', async () => {
    const uploadId = '0195f0c2-7c1a-7000-8000-00000000bbbb';
    server.uploads.set(uploadId, { length: 10, offset: 5, metadata: '' });
    const key = `tus::${uploadScope(ADA.sub, COLLECTION_ID)}|10|1|image/png|old.png::7`;
    localStorage.setItem(
      key,
      JSON.stringify({
        size: 10,
        metadata: { filename: 'old.png' },
        creationTime: new Date().toString(),
        uploadUrl: `${window.location.origin}/api${UPLOADS_PATH}/${uploadId}`,
      }),
    );
    serveUploadApp();
    renderUploadApp(SCREEN_PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Discard the upload of old.png' }));
    await vi.waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Interrupted uploads' })).toBeNull(),
    );
    expect(server.requests.map((request) => request.method)).toEqual(['DELETE']);
    expect(server.uploads.has(uploadId)).toBe(false);
    expect(localStorage.getItem(key)).toBeNull();
  });
});
