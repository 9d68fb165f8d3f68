import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '../../../test/session-fixtures';
import {
  fetchMock,
  fileItem,
  FILES_PATH,
  jsonResponse,
  renderFilesPage,
  serve,
  stubDesktop,
} from '../test/files-fixtures';

const PDF = fileItem({
  name: 'minutes.pdf',
  contentType: 'application/pdf',
  thumbnailUrl: 'https://cdn.example/thumb/minutes.webp',
  previewUrl: 'https://cdn.example/preview/minutes.webp',
});
const PHOTO = fileItem({
  name: 'photo.jpg',
  previewUrl: 'https://cdn.example/preview/photo.webp',
});
const INLINE_URL = 'http://localhost/api/storage/inline-token';

function linkCalls(fileId: string): URL[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(typeof input === 'string' ? input : '', 'http://localhost'))
    .filter((url) => url.pathname === `/api${FILES_PATH}/${fileId}/download`);
}

function serveFiles(role: 'owner' | 'uploader' = 'owner') {
  serve({
    role,
    files: [PDF, PHOTO],
    handlers: {
      [`GET ${FILES_PATH}/${PDF.fileId}`]: () => jsonResponse(200, PDF),
      [`GET ${FILES_PATH}/${PHOTO.fileId}`]: () => jsonResponse(200, PHOTO),
      [`GET ${FILES_PATH}/${PDF.fileId}/download`]: () => jsonResponse(200, { url: INLINE_URL }),
    },
  });
}

/** What the browser says of its PDF viewer (jsdom has none). */
function pdfViewer(enabled: boolean) {
  Object.defineProperty(navigator, 'pdfViewerEnabled', { value: enabled, configurable: true });
}

describe('the preview of a PDF', { timeout: 30_000 }, () => {
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
    Reflect.deleteProperty(navigator, 'pdfViewerEnabled');
  });

  it('shows the document in the browser’s viewer, in a frame over an inline link', async () => {
    pdfViewer(true);
    serveFiles();
    renderFilesPage();
    fireEvent.click(await screen.findByText('minutes.pdf'));
    const dialog = await screen.findByRole('dialog', { name: 'minutes.pdf' });
    const frame = await within(dialog).findByTitle('The PDF “minutes.pdf”');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(INLINE_URL);
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    // Chromium shows no PDF in a sandboxed frame: the link's headers keep it safe instead.
    expect(frame.hasAttribute('sandbox')).toBe(false);
    const [link] = linkCalls(PDF.fileId);
    expect(link?.searchParams.get('disposition')).toBe('inline');
    expect(within(dialog).queryByRole('img', { name: 'minutes.pdf' })).toBeNull();
    // The header keeps its Download button, as for a picture.
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeTruthy();

    // An image next to it is still a picture; back to the PDF, the same document.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next file' }));
    expect(await within(dialog).findByRole('img', { name: 'photo.jpg' })).toBeTruthy();
    expect(within(dialog).queryByTitle('The PDF “minutes.pdf”')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Previous file' }));
    expect(await within(dialog).findByTitle('The PDF “minutes.pdf”')).toBeTruthy();
  });

  it('shows the first page’s picture where the browser has no PDF viewer', async () => {
    pdfViewer(false);
    serveFiles();
    renderFilesPage();
    fireEvent.click(await screen.findByText('minutes.pdf'));
    const dialog = await screen.findByRole('dialog', { name: 'minutes.pdf' });
    const page = await within(dialog).findByRole('img', { name: 'minutes.pdf' });
    expect(page.getAttribute('src')).toBe(PDF.previewUrl);
    expect(within(dialog).queryByTitle('The PDF “minutes.pdf”')).toBeNull();
    expect(linkCalls(PDF.fileId)).toHaveLength(0);
  });

  it('shows the first page’s picture to a member who may not download the file', async () => {
    pdfViewer(true);
    serveFiles('uploader');
    renderFilesPage();
    fireEvent.click(await screen.findByText('minutes.pdf'));
    const dialog = await screen.findByRole('dialog', { name: 'minutes.pdf' });
    expect(await within(dialog).findByRole('img', { name: 'minutes.pdf' })).toBeTruthy();
    expect(linkCalls(PDF.fileId)).toHaveLength(0);
  });
});
