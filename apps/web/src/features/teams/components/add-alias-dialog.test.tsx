import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AppProviders,
  createTestQueryClient,
  errorResponse,
  fetchRoutes,
  jsonResponse,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { createTestSessionManager, storeSession } from '../../../test/session-fixtures';
import { team, TEAM_ID } from '../../../test/team-fixtures';
import { AddAliasDialog } from './add-alias-dialog';

const fetchMock = vi.fn<typeof fetch>();
const ALIASES_PATH = `/teams/${TEAM_ID}/aliases`;

function renderDialog(onClose = vi.fn()) {
  render(
    <AppProviders
      manager={createTestSessionManager().manager}
      queryClient={createTestQueryClient()}
    >
      <AddAliasDialog team={team({ name: 'Choir' })} onClose={onClose} />
    </AppProviders>,
  );
  return onClose;
}

function typeAlias(value: string) {
  fireEvent.change(screen.getByLabelText('Alias', { exact: false, selector: 'input' }), {
    target: { value },
  });
}

const button = (name: string) => screen.getByRole('button', { name });

describe('add alias dialog', () => {
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

  it('validates with the alias rules before asking for confirmation', async () => {
    renderDialog();
    fireEvent.click(button('Continue'));
    expect(await screen.findByText('Alias required')).toBeTruthy();

    typeAlias('ab');
    fireEvent.click(button('Continue'));
    expect(await screen.findByText('Alias must be at least 3 characters long')).toBeTruthy();

    typeAlias('-choir');
    fireEvent.click(button('Continue'));
    expect(
      await screen.findByText(
        'Alias supports just letters, numbers and hyphens but it cannot start or end with an hyphen.',
      ),
    ).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('confirms the normalised alias, goes back on Cancel, and creates it on Confirm', async () => {
    const post = vi.fn(() => jsonResponse(201, { alias: 'my-choir' }));
    fetchMock.mockImplementation(fetchRoutes({ [`POST ${ALIASES_PATH}`]: post }));
    const onClose = renderDialog();

    typeAlias('  My-Choir ');
    fireEvent.click(button('Continue'));
    expect(await screen.findByText('my-choir')).toBeTruthy();
    expect(screen.getByText('Once assigned it cannot be changed.')).toBeTruthy();
    expect(screen.getByText('This alias will be assigned to Choir:')).toBeTruthy();

    // Cancel returns to the field, keeping what was typed (as it will be saved).
    fireEvent.click(button('Cancel'));
    const field = screen.getByLabelText('Alias', { exact: false, selector: 'input' });
    expect((field as HTMLInputElement).value).toBe('my-choir');
    expect(post).not.toHaveBeenCalled();

    fireEvent.click(button('Continue'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(post).toHaveBeenCalledWith({ alias: 'my-choir', star: true });
    expect(await screen.findByText('The alias “my-choir” has been added.')).toBeTruthy();
    const sent = sentRequests(fetchMock).find((request) => request.path === ALIASES_PATH);
    expect(sent?.method).toBe('POST');
  });

  it('closes and shows the error as a toast when the creation fails', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({ [`POST ${ALIASES_PATH}`]: () => errorResponse(403, 'quotaExceededAliases') }),
    );
    const onClose = renderDialog();
    typeAlias('choir-two');
    fireEvent.click(button('Continue'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));

    const toast = await screen.findByText('Your plan’s limit of aliases has been reached.');
    expect(toast.closest('.MuiSnackbar-root')).not.toBeNull();
    expect(onClose).toHaveBeenCalled();
  });
});
