import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { stubMatchMedia } from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import { FakeTusServer } from '../test/fake-tus-server';
import { fakeXhrFor } from '../test/fake-xhr';
import {
  collection,
  COLLECTION_ID,
  fetchMock,
  renderUploadApp,
  SCREEN_PATH,
  serveUploadApp,
} from '../test/upload-fixtures';
import { rememberShareChoice, SHARE_CACHE } from '../utils/shared-files';

const SHARE_ID = '1764300000000-0b7d4f0e-7c1a-4a8e-9a55-3f1f0c2b9d11';
const OTHER = '0195f0c2-7c1a-7000-8000-0000000000c9';

/** The worker's share cache holding `files` under SHARE_ID (the page's own Blobs). */
function sharedInCache(files: File[]) {
  const entries = new Map(
    files.map((file, index) => [
      `${window.location.origin}/__share/${SHARE_ID}/${index}`,
      {
        headers: new Headers({
          'Content-Type': file.type,
          'X-File-Name': encodeURIComponent(file.name),
          'X-Last-Modified': String(file.lastModified),
        }),
        blob: () => Promise.resolve(file.slice(0, file.size, file.type)),
      },
    ]),
  );
  const cache = {
    keys: () => Promise.resolve([...entries.keys()].map((url) => new Request(url))),
    match: (request: Request) => Promise.resolve(entries.get(request.url)),
    delete: (request: Request) => Promise.resolve(entries.delete(request.url)),
  };
  vi.stubGlobal('caches', {
    has: (name: string) => Promise.resolve(name === SHARE_CACHE),
    open: () => Promise.resolve(cache),
  });
  return entries;
}

describe('upload app: files shared from the phone', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('XMLHttpRequest', fakeXhrFor(new FakeTusServer()));
    storeSession();
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('asks which collection, preselecting the last one, then queues the files there', async () => {
    const entries = sharedInCache([
      new File(['12345'], 'beach.jpg', { type: 'image/jpeg', lastModified: 1_700_000_000_000 }),
    ]);
    serveUploadApp({
      collections: [collection(), collection({ collectionId: OTHER, name: 'Rehearsals' })],
    });
    rememberShareChoice(ADA.sub, { teamId: TEAM_ID, collectionId: COLLECTION_ID });
    const { router } = renderUploadApp(`/upload/share?id=${SHARE_ID}`);

    expect(await screen.findByText('1 file shared')).toBeTruthy();
    expect(screen.getByText('beach.jpg (5 bytes)')).toBeTruthy();
    const choice = await screen.findByRole('radiogroup', { name: 'Collection' });
    expect(within(choice).getAllByRole('radio')).toHaveLength(2);
    expect(within(choice).getByRole('radio', { name: 'Spring concert' })).toHaveProperty(
      'checked',
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Upload the file here' }));

    // The collection's own upload screen, its queue holding the file; the share is forgotten.
    expect(await screen.findByText('1 of 1 uploaded')).toBeTruthy();
    expect(router.state.location.pathname).toBe(SCREEN_PATH);
    expect(entries.size).toBe(0);
  });

  it('asks when nothing is remembered and remembers the choice per account', async () => {
    sharedInCache([new File(['1'], 'a.pdf', { type: 'application/pdf' })]);
    serveUploadApp({
      collections: [collection(), collection({ collectionId: OTHER, name: 'Rehearsals' })],
    });
    rememberShareChoice('someone-else', { teamId: TEAM_ID, collectionId: OTHER });
    const { router } = renderUploadApp(`/upload/share?id=${SHARE_ID}`);
    const choice = await screen.findByRole('radiogroup', { name: 'Collection' });
    const send = screen.getByRole('button', { name: 'Upload the file here' });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.click(within(choice).getByRole('radio', { name: 'Rehearsals' }));
    fireEvent.click(send);
    await vi.waitFor(
      () => expect(router.state.location.pathname).toBe(`/upload/teams/choir/collections/${OTHER}`),
      { timeout: 5000 },
    );
    expect(JSON.parse(localStorage.getItem(`raccolta:share-choice:${ADA.sub}`) ?? '')).toEqual({
      teamId: TEAM_ID,
      collectionId: OTHER,
    });
  });

  it('says so when the shared files are gone, in Italian too', async () => {
    sharedInCache([]);
    serveUploadApp();
    await i18n.changeLanguage('it');
    renderUploadApp(`/upload/share?id=${SHARE_ID}`);
    expect(await screen.findByText(/I file condivisi non sono più qui/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Apri l’app' })).toHaveProperty('pathname', '/upload');
  });
});
