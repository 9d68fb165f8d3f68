import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import {
  AppProviders,
  createTestQueryClient,
  fetchRoutes,
  jsonResponse,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { createTestSessionManager, storeSession } from '../../../test/session-fixtures';
import { team, TEAM_ID } from '../../../test/team-fixtures';
import { DigestDialog } from './digest-dialog';

const fetchMock = vi.fn<typeof fetch>();
const DIGEST_PATH = `/teams/${TEAM_ID}/members/@me/digest`;

function renderDialog() {
  render(
    <AppProviders
      manager={createTestSessionManager().manager}
      queryClient={createTestQueryClient()}
    >
      <DigestDialog team={team({ name: 'Choir' })} onClose={vi.fn()} />
    </AppProviders>,
  );
}

describe('e-mail digest dialog', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('shows the role default and saves a new choice at once', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        [`GET ${DIGEST_PATH}`]: () =>
          jsonResponse(200, { frequency: 'daily', isDefault: true, available: true }),
        [`PUT ${DIGEST_PATH}`]: () =>
          jsonResponse(200, { frequency: 'instant', isDefault: false, available: true }),
      }),
    );
    renderDialog();
    const daily = await screen.findByRole<HTMLInputElement>('radio', { name: 'Daily' });
    expect(daily.checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /As they arrive/ }));
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('radio', { name: /As they arrive/ }).checked).toBe(
        true,
      ),
    );
    expect(
      sentRequests(fetchMock)
        .filter((request) => request.method === 'PUT')
        .map((request) => [request.path, request.body]),
    ).toEqual([[DIGEST_PATH, { frequency: 'instant' }]]);
  });

  it('explains that a member without an e-mail address gets none, in Italian too', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        [`GET ${DIGEST_PATH}`]: () =>
          jsonResponse(200, { frequency: 'never', isDefault: true, available: false }),
      }),
    );
    await i18n.changeLanguage('it');
    renderDialog();
    expect(await screen.findByText(/il tuo account non ne ha/)).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
  });
});
