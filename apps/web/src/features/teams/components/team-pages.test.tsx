import type { Member, TeamListItem, User } from '@raccolta/contracts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, beforeAll } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../../../app/router';
import {
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  stubMatchMedia,
  eagerRoutes,
} from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import { member, ME, self, team, TEAM_ID, teamListItem } from '../../../test/team-fixtures';

let routes: RouteObject[];
beforeAll(async () => {
  routes = await eagerRoutes(appRoutes);
});

const fetchMock = vi.fn<typeof fetch>();
const BEA = member({ nickname: 'Bea', role: 'viewer', status: 'invited', inviteExpiresAt: 1 });

interface Setup {
  user?: User;
  teams?: TeamListItem[];
  me?: Member;
  patch?: (body: unknown) => Response;
}

function serve({ user = ME, teams = [teamListItem()], me = self('owner'), patch }: Setup = {}) {
  const members = () => jsonResponse(200, { members: [me, BEA], pagination: { lastKey: null } });
  fetchMock.mockImplementation(
    fetchRoutes({
      'GET /users/@me': () => jsonResponse(200, user),
      'GET /teams': () => jsonResponse(200, { teams, pagination: { lastKey: null } }),
      'GET /teams/choir': () => jsonResponse(200, team()),
      [`GET /teams/${TEAM_ID}`]: () => jsonResponse(200, team()),
      [`GET /teams/${TEAM_ID}/members`]: members,
      [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: () => jsonResponse(200, me),
      ...(patch ? { [`PATCH /teams/${TEAM_ID}`]: patch } : {}),
    }),
  );
}

async function openTeamMenu(): Promise<string[]> {
  // The header's team menu is a lazy module: on a busy machine it takes more than a second.
  const button = await screen.findByRole(
    'button',
    { name: 'Team menu: Choir' },
    { timeout: 10_000 },
  );
  await vi.waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(button);
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
}

describe('teams pages', () => {
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
    document.title = '';
  });

  it('opens the only team from /teams: title, header menu and members', async () => {
    serve();
    const { router } = renderRoutes(routes, '/teams');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choir' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/teams/choir');
    expect(document.title).toBe('Choir · Raccolta');
    expect(screen.getByRole('heading', { name: 'Collections' })).toBeTruthy();

    expect(await openTeamMenu()).toEqual([
      'Details',
      'Rename',
      'Add alias',
      'Trash',
      'E-mail digest',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Details' }));
    const details = await screen.findByRole('dialog', { name: 'Team details' });
    expect(within(details).getByText('Sopranos and altos')).toBeTruthy();
    expect(within(details).getByText('Collaborative')).toBeTruthy();
    // The count is of active members, as the panel (which lists invited ones too) is not.
    expect(within(details).getByText('Active members')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Close' }));

    // On a phone the members panel is a drawer over the page.
    fireEvent.click(screen.getByRole('button', { name: 'Members' }));
    expect(await screen.findByText('Ada (you)')).toBeTruthy();
    expect(screen.getByText('Bea')).toBeTruthy();
    expect(screen.getByText('Invitation expired')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add member' })).toBeTruthy();

    // A click on a member shows the collections they created, and closes the drawer.
    fireEvent.click(screen.getByRole('button', { description: 'Collections created by Bea' }));
    await vi.waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('member')).toBeTruthy(),
    );
    expect(router.state.location.pathname).toBe('/teams/choir');
  });

  it('counts a member just added in the team details', async () => {
    let count = 3;
    const created = member({ type: 'internal', username: 'carlo.rossi', role: 'uploader' });
    const members = () =>
      jsonResponse(200, { members: [self('owner'), BEA], pagination: { lastKey: null } });
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /teams': () =>
          jsonResponse(200, { teams: [teamListItem()], pagination: { lastKey: null } }),
        'GET /teams/choir': () => jsonResponse(200, team({ membersCount: count })),
        [`GET /teams/${TEAM_ID}`]: () => jsonResponse(200, team({ membersCount: count })),
        [`GET /teams/${TEAM_ID}/members`]: members,
        [`GET /teams/${TEAM_ID}/members/${ADA.sub}`]: () => jsonResponse(200, self('owner')),
        [`POST /teams/${TEAM_ID}/members`]: () => {
          count = 4;
          return jsonResponse(201, {
            member: created,
            credentials: {
              teamId: TEAM_ID,
              teamAlias: 'choir',
              teamCode: 'K7QM3XR',
              username: 'carlo.rossi',
              password: 'Xy7-generated-Pass_01',
            },
          });
        },
      }),
    );
    renderRoutes(routes, '/teams/choir');
    await screen.findByRole('button', { name: 'Account menu' }, { timeout: 10_000 });
    await openTeamMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Details' }));
    let details = await screen.findByRole('dialog', { name: 'Team details' });
    expect(within(details).getByText('3')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Members' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Internal contributor' }));
    fireEvent.change(screen.getByLabelText('Username', { exact: false, selector: 'input' }), {
      target: { value: 'carlo.rossi' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const credentials = await screen.findByRole('dialog', { name: 'Sign-in details' });
    fireEvent.click(within(credentials).getByRole('button', { name: 'Done' }));
    await vi.waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Sign-in details' })).toBeNull(),
    );
    // On a phone the members panel is a drawer: closed, the header is reachable again.
    fireEvent.keyDown(screen.getByRole('presentation'), { key: 'Escape' });
    await vi.waitFor(() => expect(screen.queryByRole('presentation')).toBeNull());

    await openTeamMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Details' }));
    details = await screen.findByRole('dialog', { name: 'Team details' });
    expect(await within(details).findByText('4')).toBeTruthy();
  }, 60_000);

  it('remembers that the members panel was collapsed', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    serve();
    renderRoutes(routes, '/teams/choir');
    fireEvent.click(await screen.findByRole('button', { name: 'Hide members' }));
    expect(await screen.findByRole('button', { name: 'Show members' })).toBeTruthy();
    cleanup();

    renderRoutes(routes, '/teams/choir');
    expect(await screen.findByRole('button', { name: 'Show members' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Hide members' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show members' }));
    expect(await screen.findByRole('button', { name: 'Hide members' })).toBeTruthy();
    expect(localStorage.getItem('membersPanelCollapsed')).toBeNull();
  });

  it('gives a viewer only the details and no add-member button', async () => {
    serve({ me: self('viewer') });
    renderRoutes(routes, '/teams/choir');
    expect(await openTeamMenu()).toEqual(['Details', 'E-mail digest']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Members' }));
    expect(await screen.findByText('Bea')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add member' })).toBeNull();
  });

  it('renames the team with a one-operation patch; Save waits for a change', async () => {
    const patch = vi.fn(() => jsonResponse(200, team({ name: 'Chamber choir' })));
    serve({ patch });
    renderRoutes(routes, '/teams/choir');
    await openTeamMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename the team' });
    const save = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save' });
    const field = within(dialog).getByLabelText('Team name', { exact: false, selector: 'input' });
    expect(save.disabled).toBe(true);
    fireEvent.change(field, { target: { value: ' Choir  ' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'Chamber choir' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);

    expect(await screen.findByText('The team is now called “Chamber choir”.')).toBeTruthy();
    expect(patch).toHaveBeenCalledWith([{ op: 'replace', path: '/name', value: 'Chamber choir' }]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Chamber choir' })).toBeTruthy();
  });

  it('keeps /switch-team on the list even with one team', async () => {
    serve();
    const { router } = renderRoutes(routes, '/switch-team');
    const link = await screen.findByRole('link', { name: /Choir/ });
    expect(link.getAttribute('href')).toBe('/teams/choir');
    expect(router.state.location.pathname).toBe('/switch-team');
    expect(screen.getByText('Owner')).toBeTruthy();
  });

  it('prompts a user who may create teams to create the first one', async () => {
    serve({ teams: [] });
    renderRoutes(routes, '/teams');
    fireEvent.click(await screen.findByRole('button', { name: 'Create a team' }));
    expect(await screen.findByRole('dialog', { name: 'Create a team' })).toBeTruthy();
  });

  it('shows no prompt to a user without the global scope', async () => {
    serve({ teams: [], user: { ...ME, userScope: 'team' } });
    renderRoutes(routes, '/teams');
    expect(
      await screen.findByText(
        'You are not a member of any team yet. A team manager can invite you.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create a team' })).toBeNull();
  });

  it('sends a team that answers 4xx to /404', async () => {
    serve();
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /teams/nowhere': () => errorResponse(404, 'notFound'),
      }),
    );
    const { router } = renderRoutes(routes, '/teams/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
  });
});
