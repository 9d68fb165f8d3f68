import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AppProviders,
  createTestQueryClient,
  fetchRoutes,
  jsonResponse,
  stubMatchMedia,
} from '../../../test/providers';
import { createTestSessionManager, storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import { COLLECTION_ID, fileItem, FILES_PATH } from '../test/files-fixtures';
import { DuplicatesDialog } from './duplicates-dialog';

const fetchMock = vi.fn<typeof fetch>();
const MORE_TEXT = 'Showing the first 2 groups; delete these extras to see the rest.';

function group(digit: string) {
  const sha256 = digit.repeat(64);
  return { sha256, files: [fileItem({ sha256 }), fileItem({ sha256 })] };
}

function renderDialog(more: boolean) {
  fetchMock.mockImplementation(
    fetchRoutes({
      [`GET ${FILES_PATH}/duplicates`]: () =>
        jsonResponse(200, { groups: [group('1'), group('2')], more }),
    }),
  );
  render(
    <AppProviders
      manager={createTestSessionManager().manager}
      queryClient={createTestQueryClient()}
    >
      <DuplicatesDialog teamId={TEAM_ID} collectionId={COLLECTION_ID} canDelete onClose={vi.fn()} />
    </AppProviders>,
  );
}

describe('the duplicates dialog', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
  });

  it('says when the API lists only the first groups', async () => {
    renderDialog(true);
    expect(await screen.findByText(MORE_TEXT)).toBeTruthy();
    expect(screen.getByText('Group 2 · 2 copies')).toBeTruthy();
  });

  it('says nothing of the kind when every group is listed', async () => {
    renderDialog(false);
    expect(await screen.findByText('Group 2 · 2 copies')).toBeTruthy();
    expect(screen.queryByText(MORE_TEXT)).toBeNull();
  });
});
