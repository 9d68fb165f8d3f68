import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import {
  collection,
  COLLECTION_ID,
  fetchMock,
  fileItem,
  jsonResponse,
  renderFilesPage,
  serve,
  stubDesktop,
} from '../test/files-fixtures';

const DOWNLOADS_PATH = `/teams/${TEAM_ID}/downloads`;

function accepted() {
  return jsonResponse(202, {
    requestId: '0195f0c2-7c1a-7000-8000-0000000000d1',
    teamId: TEAM_ID,
    collectionId: COLLECTION_ID,
    collectionName: 'Spring concert',
    status: 'inProgress',
    totalParts: null,
    readyParts: 0,
    fileCount: 3,
    totalBytes: 1000,
    parts: [],
    createdAt: '2025-03-06T10:00:00.000Z',
    readyAt: null,
    expiresAt: null,
  });
}

describe('Download all on the files screen', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubDesktop();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    fetchMock.mockReset();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('requests the whole collection for a viewer and says it is being prepared', async () => {
    const post = vi.fn(accepted);
    serve({
      role: 'viewer',
      files: [fileItem()],
      handlers: { [`POST ${DOWNLOADS_PATH}`]: post },
    });
    renderFilesPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Download all' }));
    expect(
      await screen.findByText(
        'Preparing the download of “Spring concert”… We’ll also e-mail you when it is ready.',
      ),
    ).toBeTruthy();
    expect(post).toHaveBeenCalledWith({ collectionId: COLLECTION_ID });
  });

  it('is disabled, with the reason, for an empty collection', async () => {
    serve({ collection: collection({ filesCount: 0 }) });
    renderFilesPage();
    const button = await screen.findByRole<HTMLButtonElement>('button', { name: 'Download all' });
    expect(button.disabled).toBe(true);
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('There are no files to download yet.');
  });

  it('is not offered to a contributor', async () => {
    serve({ role: 'uploader', files: [fileItem()] });
    renderFilesPage();
    expect(await screen.findByRole('button', { name: 'Upload files' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download all' })).toBeNull();
  });
});
