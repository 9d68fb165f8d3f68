import type { UploadLink } from '@raccolta/contracts';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { fetchRoutes, jsonResponse, renderRoutes, stubMatchMedia } from '../../../test/providers';
import { storeSession } from '../../../test/session-fixtures';
import { team, TEAM_ID } from '../../../test/team-fixtures';
import { collection, COLLECTION_ID, COLLECTION_PATH } from '../../files/test/files-fixtures';
import { UploadLinkPosterPage } from './upload-link-poster-page';

const fetchMock = vi.fn<typeof fetch>();
const LINK_ID = '0195f0c2-7c1a-7000-8000-0000000000aa';
const POSTER = `/teams/choir/collections/${COLLECTION_ID}/links/${LINK_ID}/poster`;

function link(): UploadLink {
  return {
    linkId: LINK_ID,
    collectionId: COLLECTION_ID,
    label: 'Door',
    hasPassword: false,
    expiresAt: null,
    maxFiles: null,
    maxBytes: null,
    acceptedTypes: ['image/*'],
    requireName: true,
    requireEmail: false,
    enabled: true,
    fileCount: 0,
    byteCount: 0,
    createdAt: '2026-11-28T10:00:00.000Z',
    url: 'https://raccolta.example/upload/l/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  };
}

function renderPoster(links: UploadLink[] = [link()]) {
  fetchMock.mockImplementation(
    fetchRoutes({
      'GET /teams/choir': () => jsonResponse(200, team()),
      [`GET ${COLLECTION_PATH}`]: () => jsonResponse(200, collection({ name: 'Wedding' })),
      [`GET /teams/${TEAM_ID}/collections/${COLLECTION_ID}/links`]: () =>
        jsonResponse(200, { links }),
    }),
  );
  return renderRoutes(
    [
      {
        path: '/teams/:teamRef/collections/:collectionId/links/:linkId/poster',
        Component: UploadLinkPosterPage,
      },
    ],
    POSTER,
  );
}

describe('the printable poster of an upload link', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    await i18n.changeLanguage('en');
  });

  it("shows the collection's name, the QR code and the short address, A4 or A5", async () => {
    renderPoster();
    expect(await screen.findByRole('heading', { name: 'Wedding' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'QR code of Door' })).toBeTruthy();
    expect(
      screen.getByText('raccolta.example/upload/l/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    ).toBeTruthy();
    const sheet = document.getElementById('upload-link-poster');
    expect(sheet?.dataset.size).toBe('A4');
    fireEvent.click(screen.getByRole('button', { name: 'A5' }));
    expect(sheet?.dataset.size).toBe('A5');
    // The page's print rules: the sheet alone, on paper of its size.
    const rules = [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(rules).toMatch(/@page\s*{\s*size:\s*A5 portrait/);
    const print = vi.fn();
    vi.stubGlobal('print', print);
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('says so when the link is not among the collection’s', async () => {
    renderPoster([]);
    expect(
      await screen.findByText('This upload link cannot be found. It may have been deleted.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toHaveProperty('disabled', true);
  });

  it('is in Italian too', async () => {
    await i18n.changeLanguage('it');
    renderPoster();
    expect(
      await screen.findByText('Inquadra il codice per inviare le tue foto e i tuoi file'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stampa' })).toBeTruthy();
  });
});
