import type { Collection } from '@raccolta/contracts';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AppProviders,
  createTestQueryClient,
  errorResponse,
  fetchRoutes,
  jsonResponse,
  stubMatchMedia,
} from '../../../test/providers';
import { createTestSessionManager, storeSession } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import {
  collection,
  COLLECTIONS_PATH,
  fetchWithQuery,
  listPage,
  renderCollections,
} from '../test-fixtures';
import { CreateCollectionDialog } from './create-collection-dialog';

const fetchMock = vi.fn<typeof fetch>();
const NOW = Date.UTC(2026, 11, 1, 10, 0);

const due = (at: number, timeZone = 'UTC') => ({
  deadline: { at: new Date(at).toISOString(), local: '', timeZone },
});

function serve(collections: Collection[], remind?: () => Response) {
  const list = vi.fn(() => jsonResponse(200, listPage(collections)));
  fetchMock.mockImplementation(
    fetchWithQuery(
      { [`GET ${COLLECTIONS_PATH}`]: list },
      Object.fromEntries(
        collections.map((c) => [
          `POST ${COLLECTIONS_PATH}/${c.collectionId}/reminders`,
          remind ?? (() => jsonResponse(202, { sent: 0 })),
        ]),
      ),
    ),
  );
}

describe('collection deadlines', { timeout: 15_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
  });

  it('shows due in N days, due today and closed on the rows, counted in the deadline’s zone', async () => {
    serve([
      collection({ name: 'Three', ...due(Date.UTC(2026, 11, 4, 9, 0)) }),
      collection({ name: 'One', ...due(Date.UTC(2026, 11, 2, 9, 0)) }),
      collection({ name: 'Today', ...due(Date.UTC(2026, 11, 1, 20, 0)) }),
      // 23:30 UTC is already 2 December in Rome: tomorrow there.
      collection({ name: 'Rome', ...due(Date.UTC(2026, 11, 1, 23, 30), 'Europe/Rome') }),
      collection({ name: 'Closed', ...due(Date.UTC(2026, 10, 30, 9, 0)) }),
      collection({
        name: 'Late',
        ...due(Date.UTC(2026, 10, 30, 9, 0)),
        allowLateUploads: true,
      }),
      collection({ name: 'None' }),
    ]);
    renderCollections();
    const list = await screen.findByRole('list', { name: 'Collections' });
    const chipOf = (name: string) => {
      const row = within(list)
        .getAllByRole('listitem')
        .find((item) => within(item).queryByRole('link', { name }) !== null);
      return row ? within(row).queryByTestId('due-chip')?.textContent : undefined;
    };
    expect(chipOf('Three')).toBe('Due in 3 days');
    expect(chipOf('One')).toBe('Due in 1 day');
    expect(chipOf('Today')).toBe('Due today');
    expect(chipOf('Rome')).toBe('Due in 1 day');
    expect(chipOf('Closed')).toBe('Closed');
    expect(chipOf('Late')).toBe('Closed · late uploads allowed');
    expect(chipOf('None')).toBeUndefined();
  });

  it('offers "Send reminder now" to owners and admins while files are accepted', async () => {
    const open = collection({ name: 'Open', ...due(NOW + 3 * 86_400_000) });
    const closed = collection({ name: 'Shut', ...due(NOW - 1000) });
    const remind = vi.fn(() => jsonResponse(202, { sent: 2 }));
    serve([open, closed], remind);
    renderCollections();
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Shut' }));
    expect(screen.queryByRole('menuitem', { name: 'Send reminder now' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Open' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Send reminder now' }));
    expect(await screen.findByText('Reminder sent to 2 people')).toBeTruthy();
    expect(remind).toHaveBeenCalledTimes(1);

    // Nobody left to remind: the API says so with 200 and sent: 0.
    remind.mockImplementation(() => jsonResponse(200, { sent: 0 }));
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Open' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Send reminder now' }));
    expect(
      await screen.findByText('Nobody needs a reminder: everyone has already sent something.'),
    ).toBeTruthy();

    remind.mockImplementation(() => errorResponse(429, 'tooManyRequests'));
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Open' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Send reminder now' }));
    expect(await screen.findByText('A reminder was sent recently. Try again later.')).toBeTruthy();
  });

  it('does not offer it to a contributor', async () => {
    serve([collection({ name: 'Open', mode: 'collaborative', ...due(NOW + 86_400_000) })]);
    renderCollections({ role: 'uploader' });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Open' }));
    expect(screen.queryByRole('menuitem', { name: 'Send reminder now' })).toBeNull();
  });

  it('sends the deadline with its zone and the late switch from the create dialog', async () => {
    const post = vi.fn(() => jsonResponse(201, collection({ name: 'Concert' })));
    fetchMock.mockImplementation(fetchRoutes({ [`POST ${COLLECTIONS_PATH}`]: post }));
    const onClose = vi.fn();
    render(
      <AppProviders
        manager={createTestSessionManager().manager}
        queryClient={createTestQueryClient()}
      >
        <CreateCollectionDialog teamId={TEAM_ID} role="owner" onClose={onClose} />
      </AppProviders>,
    );
    fireEvent.change(screen.getByLabelText('Collection name', { exact: false }), {
      target: { value: 'Concert' },
    });
    // The zone defaults to the browser's and is offered once a date is set.
    const zone = screen.getByRole<HTMLInputElement>('combobox', { name: 'Time zone' });
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(zone.value).toBe(browserZone);
    expect(screen.queryByRole('switch', { name: 'Allow late uploads' })).toBeNull();
    fireEvent.change(screen.getByTestId('deadline'), { target: { value: '2026-12-24T18:00' } });
    const late = screen.getByRole<HTMLInputElement>('switch', { name: 'Allow late uploads' });
    fireEvent.click(late);
    expect(late.checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(post).toHaveBeenLastCalledWith({
      name: 'Concert',
      mode: 'collaborative',
      deadline: { local: '2026-12-24T18:00', timeZone: browserZone },
      allowLateUploads: true,
    });
  });
});
