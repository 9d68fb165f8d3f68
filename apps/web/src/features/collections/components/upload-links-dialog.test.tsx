import type { UploadLink } from '@raccolta/contracts';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AppProviders,
  createTestQueryClient,
  fetchRoutes,
  jsonResponse,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { createTestSessionManager, storeSession } from '../../../test/session-fixtures';
import { collection } from '../test-fixtures';
import { UploadLinksDialog } from './upload-links-dialog';

/**
 * What jsdom lacks to draw the PNG: an image that loads, a 2D canvas and its blob, object URLs.
 * The code under test is the real one; the anchor it clicks is caught.
 */
function stubPngDrawing() {
  class LoadingImage {
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    set src(_value: string) {
      setTimeout(() => this.onload?.());
    }
  }
  vi.stubGlobal('Image', LoadingImage);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    fillRect: vi.fn(),
    drawImage: vi.fn(),
  } as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (callback) {
    callback(new Blob(['png'], { type: 'image/png' }));
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:qr');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const clicked: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this);
  });
  return clicked;
}

const fetchMock = vi.fn<typeof fetch>();
const COLLECTION = collection({ name: 'Wedding' });
const LINKS_PATH = `/teams/${COLLECTION.teamId}/collections/${COLLECTION.collectionId}/links`;

function link(overrides: Partial<UploadLink> = {}): UploadLink {
  return {
    linkId: '0195f0c2-7c1a-7000-8000-0000000000aa',
    collectionId: COLLECTION.collectionId,
    label: 'Guests at the door',
    hasPassword: true,
    expiresAt: null,
    maxFiles: null,
    maxBytes: null,
    acceptedTypes: ['image/*'],
    requireName: true,
    requireEmail: false,
    enabled: true,
    fileCount: 2,
    byteCount: 2048,
    createdAt: '2026-11-28T10:00:00.000Z',
    url: 'https://raccolta.example/upload/l/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ...overrides,
  };
}

function renderDialog() {
  render(
    <AppProviders
      manager={createTestSessionManager().manager}
      queryClient={createTestQueryClient()}
    >
      <MemoryRouter>
        <UploadLinksDialog collection={COLLECTION} onClose={vi.fn()} />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('upload links dialog', { timeout: 15_000 }, () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    fetchMock.mockReset();
  });

  it('lists the links with their file count, QR code and switch, and disables one', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        [`GET ${LINKS_PATH}`]: () => jsonResponse(200, { links: [link()] }),
        [`PATCH ${LINKS_PATH}/${link().linkId}`]: () => jsonResponse(200, link({ enabled: false })),
      }),
    );
    renderDialog();
    expect(await screen.findByText('Guests at the door')).toBeTruthy();
    expect(screen.getByText('2 files · password protected')).toBeTruthy();
    expect(screen.getByText(link().url)).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'QR code of Guests at the door' })).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Open' }));
    await waitFor(() =>
      expect(sentRequests(fetchMock).find((r) => r.method === 'PATCH')).toMatchObject({
        path: `${LINKS_PATH}/${link().linkId}`,
        body: { enabled: false },
      }),
    );
  });

  it('creates a link with what was filled in', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        [`GET ${LINKS_PATH}`]: () => jsonResponse(200, { links: [] }),
        [`POST ${LINKS_PATH}`]: () => jsonResponse(201, link()),
      }),
    );
    renderDialog();
    expect(await screen.findByText('No upload links yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name (optional)'), { target: { value: 'Door' } });
    fireEvent.change(screen.getByLabelText('Most files (optional)'), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Ask guests for an e-mail address' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await waitFor(() =>
      expect(sentRequests(fetchMock).find((r) => r.method === 'POST')?.body).toEqual({
        label: 'Door',
        maxFiles: 50,
        requireName: true,
        requireEmail: true,
      }),
    );
  });

  it('downloads the QR code as a PNG and opens the printable poster in a new tab', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({ [`GET ${LINKS_PATH}`]: () => jsonResponse(200, { links: [link()] }) }),
    );
    const clicked = stubPngDrawing();
    renderDialog();
    fireEvent.click(
      await screen.findByRole('button', {
        name: 'Download the QR code of Guests at the door as a PNG',
      }),
    );
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]?.download).toBe('qr-guests-at-the-door.png');
    expect(clicked[0]?.getAttribute('href')).toBe('blob:qr');
    const poster = screen.getByRole('link', {
      name: 'Open the printable poster of Guests at the door',
    });
    expect(poster.getAttribute('href')).toBe(
      `/teams/${COLLECTION.teamId}/collections/${COLLECTION.collectionId}/links/${link().linkId}/poster`,
    );
    expect(poster.getAttribute('target')).toBe('_blank');
  });
});
