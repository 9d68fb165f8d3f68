import type { GuestFile, GuestSession } from '@raccolta/contracts';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import {
  errorResponse,
  fetchRoutes,
  jsonResponse,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { FakeTusServer } from '../test/fake-tus-server';
import { fakeXhrFor } from '../test/fake-xhr';
import { choose, fetchMock, photo, renderUploadApp, submit, type } from '../test/upload-fixtures';

const LINK_TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const PAGE = `/upload/l/${LINK_TOKEN}`;
const OPEN = `POST /guest/links/${LINK_TOKEN}/open`;
const GUEST_ID = '7d6f1c52-5b0e-4d8b-9f51-3a1d2c4b5e6f';

function session(link: Partial<GuestSession['link']> = {}): GuestSession {
  return {
    guestToken: 'guest-token-1',
    guestId: GUEST_ID,
    expiresAt: new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString(),
    link: {
      collectionName: 'Wedding of Anna and Luca',
      collectionDescription: 'Your photos of the day, please!',
      teamName: 'Family',
      teamLogoUrl: null,
      acceptedTypes: ['image/*'],
      requireName: true,
      requireEmail: false,
      requirePassword: false,
      maxFileBytes: 1_000_000,
      ...link,
    },
  };
}

function guestFile(name: string, createdAt = Date.now()): GuestFile {
  return {
    fileId: `0000000${name.length}-0000-4000-8000-000000000001`,
    name,
    contentType: 'image/jpeg',
    size: 1000,
    createdAt: new Date(createdAt).toISOString(),
    deletableUntil: new Date(createdAt + 60 * 60 * 1000).toISOString(),
  };
}

/** Decodes tus's Upload-Metadata header ("key base64,key base64"). */
function metadataOf(header: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (header ?? '').split(',').map((pair) => {
      const [key = '', value = ''] = pair.trim().split(' ');
      return [key, atob(value)];
    }),
  );
}

describe('the guest page of an upload link', () => {
  let server: FakeTusServer;

  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('scrollTo', vi.fn());
    server = new FakeTusServer();
    vi.stubGlobal('XMLHttpRequest', fakeXhrFor(server));
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('shows the collection, asks for a name first, then uploads with the guest token', async () => {
    const files = vi.fn(() => jsonResponse(200, { files: [] as GuestFile[] }));
    fetchMock.mockImplementation(
      fetchRoutes({ [OPEN]: () => jsonResponse(200, session()), 'GET /guest/files': files }),
    );
    renderUploadApp(PAGE);
    expect(await screen.findByRole('heading', { name: 'Wedding of Anna and Luca' })).toBeTruthy();
    expect(screen.getByText('Family')).toBeTruthy();
    expect(screen.getByText('Your photos of the day, please!')).toBeTruthy();
    expect(await screen.findByText('Nothing sent from this browser yet.')).toBeTruthy();
    // No name yet: the buttons wait for it.
    expect(screen.getByRole('button', { name: 'Take photos' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveProperty('disabled', true);
    expect(screen.queryByLabelText('Your e-mail address', { exact: false })).toBeNull();

    type('Your name', 'Anna');
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveProperty('disabled', false);
    const calls = files.mock.calls.length;
    choose('Choose files', [photo('a.jpg', 3000), photo('b.jpg', 1000)]);
    expect(await screen.findByText('2 of 2 uploaded')).toBeTruthy();

    const creations = server.requests.filter((request) => request.method === 'POST');
    expect(creations.map((request) => request.url)).toEqual([
      `${window.location.origin}/api/guest/uploads`,
      `${window.location.origin}/api/guest/uploads`,
    ]);
    expect(creations[0]?.headers.Authorization).toBe('Bearer guest-token-1');
    expect(metadataOf(creations[0]?.headers['Upload-Metadata'])).toMatchObject({
      filename: 'a.jpg',
      guestName: 'Anna',
    });
    // The guest's own list is asked again once a file is in.
    await vi.waitFor(() => expect(files.mock.calls.length).toBeGreaterThan(calls));
    // Kept for the next visit: the guest id, the name, the session.
    expect(JSON.parse(localStorage.getItem('raccolta:guest') ?? '{}')).toMatchObject({
      guestId: GUEST_ID,
      name: 'Anna',
    });
  });

  it('asks for the e-mail when the link does, and sends it with each upload', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        [OPEN]: () => jsonResponse(200, session({ requireEmail: true })),
        'GET /guest/files': () => jsonResponse(200, { files: [] }),
      }),
    );
    renderUploadApp(PAGE);
    await screen.findByRole('heading', { name: 'Wedding of Anna and Luca' });
    type('Your name', 'Anna');
    type('Your e-mail address', 'anna@');
    fireEvent.blur(screen.getByLabelText('Your e-mail address', { exact: false }));
    expect(screen.getByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveProperty('disabled', true);
    type('Your e-mail address', 'anna@example.it');
    choose('Choose files', [photo('a.jpg', 500)]);
    expect(await screen.findByText('1 of 1 uploaded')).toBeTruthy();
    const creation = server.requests.find((request) => request.method === 'POST');
    expect(metadataOf(creation?.headers['Upload-Metadata'])).toMatchObject({
      guestName: 'Anna',
      guestEmail: 'anna@example.it',
    });
  });

  it('lists only what the API gives this guest, and deletes within the hour', async () => {
    let listed = [guestFile('mine.jpg'), guestFile('older.jpg', Date.now() - 2 * 60 * 60 * 1000)];
    const remove = vi.fn(() => {
      listed = listed.slice(1);
      return new Response(null, { status: 204 });
    });
    fetchMock.mockImplementation(
      fetchRoutes({
        [OPEN]: () => jsonResponse(200, session()),
        'GET /guest/files': () => jsonResponse(200, { files: listed }),
        [`DELETE /guest/files/${guestFile('mine.jpg').fileId}`]: remove,
      }),
    );
    renderUploadApp(PAGE);
    const list = await screen.findByRole('list', { name: 'Sent from this browser' });
    expect(within(list).getByText('mine.jpg')).toBeTruthy();
    expect(within(list).getByText('older.jpg')).toBeTruthy();
    // More than an hour old: no longer deletable.
    expect(screen.queryByRole('button', { name: 'Delete older.jpg' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete mine.jpg' }));
    await vi.waitFor(() => expect(screen.queryByText('mine.jpg')).toBeNull());
    expect(remove).toHaveBeenCalledOnce();
    const deletion = sentRequests(fetchMock).find((request) => request.method === 'DELETE');
    expect(deletion?.headers.Authorization).toBe('Bearer guest-token-1');
  });

  it('sends the guest id of an earlier visit back when it opens the link', async () => {
    localStorage.setItem('raccolta:guest', JSON.stringify({ guestId: GUEST_ID, name: 'Anna' }));
    fetchMock.mockImplementation(
      fetchRoutes({
        [OPEN]: () => jsonResponse(200, session()),
        'GET /guest/files': () => jsonResponse(200, { files: [] }),
      }),
    );
    renderUploadApp(PAGE);
    await screen.findByRole('heading', { name: 'Wedding of Anna and Luca' });
    const opening = sentRequests(fetchMock).find((request) => request.method === 'POST');
    expect(opening?.body).toEqual({ guestId: GUEST_ID });
    // The name typed last time is offered again.
    expect(screen.getByLabelText('Your name', { exact: false })).toHaveProperty('value', 'Anna');
  });

  it('asks for the password, says when it is wrong or when attempts are locked', async () => {
    const answers = [
      () => errorResponse(401, 'uploadLinkPasswordRequired'),
      () => errorResponse(401, 'wrongUploadLinkPassword'),
      () => errorResponse(429, 'tooManyRequests'),
      () => jsonResponse(200, session({ requirePassword: true })),
    ];
    fetchMock.mockImplementation(
      fetchRoutes({
        [OPEN]: () => {
          const next = answers.shift();
          return next ? next() : errorResponse(500, 'generic');
        },
        'GET /guest/files': () => jsonResponse(200, { files: [] }),
      }),
    );
    renderUploadApp(PAGE);
    expect(
      await screen.findByRole('heading', { name: 'This upload link is protected' }),
    ).toBeTruthy();
    type('Password', 'nope');
    submit('Open');
    expect(await screen.findByText('The password is not right.')).toBeTruthy();
    type('Password', 'again');
    submit('Open');
    expect(await screen.findByText(/locked for 15 minutes/)).toBeTruthy();
    type('Password', 'right');
    submit('Open');
    expect(await screen.findByRole('heading', { name: 'Wedding of Anna and Luca' })).toBeTruthy();
    const bodies = sentRequests(fetchMock)
      .filter((request) => request.method === 'POST')
      .map((request) => request.body as { password?: string });
    expect(bodies.map((body) => body.password)).toEqual([undefined, 'nope', 'again', 'right']);
    // The password is kept in memory only.
    const stored = Object.keys(localStorage).map((key) => localStorage.getItem(key) ?? '');
    expect(stored.join('\n')).not.toContain('right');
  });

  it('asks for the password again when the token runs out after a reload', async () => {
    // A session of an earlier visit with a minute left; the password typed then is gone.
    const earlier = session({ requirePassword: true });
    localStorage.setItem(
      `raccolta:guest-link:${LINK_TOKEN}`,
      JSON.stringify({ ...earlier, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
    );
    let unlocked = false;
    fetchMock.mockImplementation(
      fetchRoutes({
        [OPEN]: (body) =>
          (body as { password?: string }).password === 'secret'
            ? ((unlocked = true), jsonResponse(200, earlier))
            : errorResponse(401, 'uploadLinkPasswordRequired'),
        'GET /guest/files': () => jsonResponse(200, { files: [] }),
      }),
    );
    renderUploadApp(PAGE);
    expect(
      await screen.findByRole('heading', { name: 'This upload link is protected' }),
    ).toBeTruthy();
    type('Password', 'secret');
    submit('Open');
    expect(await screen.findByText('Nothing sent from this browser yet.')).toBeTruthy();
    expect(unlocked).toBe(true);
  });

  it('shows one page for a link that is unknown, closed or expired', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({ [OPEN]: () => errorResponse(404, 'uploadLinkNotFound') }),
    );
    renderUploadApp(PAGE);
    expect(await screen.findByRole('heading', { name: 'This link is not available' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Raccolta' })).toHaveProperty('pathname', '/');
  });

  it('turns into the unavailable page when the link closes during a visit', async () => {
    let open = true;
    fetchMock.mockImplementation(
      fetchRoutes({
        [OPEN]: () => jsonResponse(200, session()),
        'GET /guest/files': () =>
          open ? jsonResponse(200, { files: [] }) : errorResponse(404, 'uploadLinkNotFound'),
      }),
    );
    server.interceptor = (request) =>
      request.method === 'POST'
        ? {
            status: 404,
            body: JSON.stringify({
              statusCode: 404,
              errorCode: 'uploadLinkNotFound',
              message: 'closed',
            }),
          }
        : null;
    renderUploadApp(PAGE);
    await screen.findByRole('heading', { name: 'Wedding of Anna and Luca' });
    type('Your name', 'Anna');
    open = false;
    await act(async () => {
      choose('Choose files', [photo('a.jpg', 500)]);
      await Promise.resolve();
    });
    expect(await screen.findByRole('heading', { name: 'This link is not available' })).toBeTruthy();
    expect(localStorage.getItem(`raccolta:guest-link:${LINK_TOKEN}`)).toBeNull();
  });

  it('is in Italian too', async () => {
    await i18n.changeLanguage('it');
    fetchMock.mockImplementation(
      fetchRoutes({ [OPEN]: () => errorResponse(404, 'uploadLinkNotFound') }),
    );
    renderUploadApp(PAGE);
    expect(
      await screen.findByRole('heading', { name: 'Questo link non è disponibile' }),
    ).toBeTruthy();
  });
});
