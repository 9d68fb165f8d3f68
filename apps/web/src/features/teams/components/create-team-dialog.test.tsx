import { cleanup, fireEvent, render, screen } from '@testing-library/react';
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
import { CreateTeamDialog } from './create-team-dialog';

const fetchMock = vi.fn<typeof fetch>();

function renderDialog() {
  const onCreated = vi.fn();
  render(
    <AppProviders
      manager={createTestSessionManager().manager}
      queryClient={createTestQueryClient()}
    >
      <CreateTeamDialog onClose={vi.fn()} onCreated={onCreated} />
    </AppProviders>,
  );
  return onCreated;
}

function input(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { exact: false, selector: 'input, textarea' });
}

function type(label: string, value: string) {
  fireEvent.change(input(label), { target: { value } });
}

const create = () => fireEvent.click(screen.getByRole('button', { name: 'Create' }));

describe('create team dialog', () => {
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

  it('checks the fields with the spec §5 rules and sends nothing while they fail', async () => {
    renderDialog();
    expect(input('Contributors can create collections').checked).toBe(true);
    create();
    expect(await screen.findByText('Team name required')).toBeTruthy();

    type('Team name', ' A ');
    type('Your name in the team', 'R2-D2');
    type('Description', 'x'.repeat(251));
    create();
    expect(await screen.findByText('Team name must be at least 2 characters long')).toBeTruthy();
    expect(
      screen.getByText('Name supports just letters, spaces, hyphens, dots and apostrophes.'),
    ).toBeTruthy();
    expect(screen.getByText('Description is too long (max 250 characters)')).toBeTruthy();

    type('Team name', 'x'.repeat(51));
    create();
    expect(await screen.findByText('Team name is too long (max 50 characters)')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a collaborative team without the blank optional fields, then opens it', async () => {
    const post = vi.fn(() => jsonResponse(201, { teamId: TEAM_ID }));
    fetchMock.mockImplementation(fetchRoutes({ 'POST /teams': post }));
    const onCreated = renderDialog();
    type('Team name', '  Choir ');
    type('Description', '   ');
    create();
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith(TEAM_ID));
    expect(post).toHaveBeenCalledWith({ name: 'Choir', mode: 'collaborative' });
  });

  it('sends controlled when unchecked, with the description and nickname', async () => {
    const post = vi.fn(() => jsonResponse(201, { teamId: TEAM_ID }));
    fetchMock.mockImplementation(fetchRoutes({ 'POST /teams': post }));
    const onCreated = renderDialog();
    type('Team name', 'Choir');
    type('Description', ' Sopranos ');
    type('Your name in the team', 'Maestra Ada');
    fireEvent.click(input('Contributors can create collections'));
    create();
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(post).toHaveBeenCalledWith({
      name: 'Choir',
      description: 'Sopranos',
      nickname: 'Maestra Ada',
      mode: 'controlled',
    });
  });

  it('shows a refusal of the server in the dialog', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({ 'POST /teams': () => errorResponse(403, 'forbidden') }),
    );
    const onCreated = renderDialog();
    type('Team name', 'Choir');
    create();
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(onCreated).not.toHaveBeenCalled();
  });
});
