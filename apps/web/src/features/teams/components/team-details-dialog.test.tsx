import type { Member } from '@raccolta/contracts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../../../app/router';
import {
  eagerRoutes,
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  stubMatchMedia,
} from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import { ME, self, team, TEAM_ID, teamListItem } from '../../../test/team-fixtures';

let routes: RouteObject[];
beforeAll(async () => {
  routes = await eagerRoutes(appRoutes);
});

const fetchMock = vi.fn<typeof fetch>();

function serve(me: Member, patch?: (body: unknown) => Response) {
  fetchMock.mockImplementation(
    fetchRoutes({
      'GET /users/@me': () => jsonResponse(200, ME),
      'GET /teams': () =>
        jsonResponse(200, { teams: [teamListItem()], pagination: { lastKey: null } }),
      'GET /teams/choir': () => jsonResponse(200, team()),
      [`GET /teams/${TEAM_ID}`]: () => jsonResponse(200, team()),
      [`GET /teams/${TEAM_ID}/members`]: () =>
        jsonResponse(200, { members: [me], pagination: { lastKey: null } }),
      [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: () => jsonResponse(200, me),
      ...(patch ? { [`PATCH /teams/${TEAM_ID}`]: patch } : {}),
    }),
  );
}

async function openDetails(): Promise<HTMLElement> {
  const button = await screen.findByRole(
    'button',
    { name: 'Team menu: Choir' },
    { timeout: 10_000 },
  );
  await vi.waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(button);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Details' }));
  return screen.findByRole('dialog', { name: 'Team details' });
}

describe('the photo location setting in Team details', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
  });

  it('lets an owner switch it on with a one-operation patch, saved at once', async () => {
    const patch = vi.fn(() => jsonResponse(200, team({ stripLocation: true })));
    serve(self('owner'), patch);
    renderRoutes(routes, '/teams/choir');
    const details = await openDetails();
    const toggle = within(details).getByRole<HTMLInputElement>('switch', {
      name: 'Remove the location from uploaded photos',
    });
    expect(toggle.checked).toBe(false);
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      document.getElementById(toggle.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toMatch(/GPS position is removed from photos as they are uploaded/);
    fireEvent.click(toggle);
    await vi.waitFor(() => expect(toggle.checked).toBe(true));
    expect(patch).toHaveBeenCalledWith([{ op: 'replace', path: '/stripLocation', value: true }]);
  });

  it('says what went wrong and leaves the switch as it was when the change is refused', async () => {
    serve(self('admin'), () => errorResponse(403, 'forbidden'));
    renderRoutes(routes, '/teams/choir');
    const details = await openDetails();
    const toggle = within(details).getByRole<HTMLInputElement>('switch');
    fireEvent.click(toggle);
    expect(await within(details).findByRole('alert')).toBeTruthy();
    expect(toggle.checked).toBe(false);
  });

  it('shows a viewer the setting as text, with no switch', async () => {
    serve(self('viewer'));
    renderRoutes(routes, '/teams/choir');
    const details = await openDetails();
    expect(within(details).getByText('Kept in uploaded photos')).toBeTruthy();
    expect(within(details).queryByRole('switch')).toBeNull();
  });
});
