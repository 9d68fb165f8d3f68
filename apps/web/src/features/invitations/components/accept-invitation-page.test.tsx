import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
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
import { createTestSessionManager, storeSession, tokenSet } from '../../../test/session-fixtures';
import { TEAM_ID } from '../../../test/team-fixtures';
import { AcceptInvitationPage } from './accept-invitation-page';
import { RejectInvitationPage } from './reject-invitation-page';

const fetchMock = vi.fn<typeof fetch>();
const ACCEPT = `/teams/${TEAM_ID}/invitations/accept`;
const REJECT = `/teams/${TEAM_ID}/invitations/reject`;
const INVITED = 'bea@example.com';

const routes = [
  { path: '/teams/:teamId/invitations/accept', element: <AcceptInvitationPage /> },
  { path: '/teams/:teamId/invitations/reject', element: <RejectInvitationPage /> },
  { path: '/auth/signin', element: <p>sign-in page</p> },
  { path: '/', element: <p>home page</p> },
];

function renderAt(path: string) {
  const { manager } = createTestSessionManager();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <StrictMode>
      <AppProviders manager={manager} queryClient={createTestQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  return { router, manager };
}

function acceptBodies(): unknown[] {
  return sentRequests(fetchMock)
    .filter((request) => request.path === ACCEPT)
    .map((request) => request.body);
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label, { exact: true, selector: 'input' }), {
    target: { value },
  });
}

function answer(accept: (body: unknown) => Response) {
  fetchMock.mockImplementation(
    fetchRoutes({
      'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
      [`POST ${ACCEPT}`]: accept,
      [`POST ${REJECT}`]: () => jsonResponse(200, { rejected: true }),
    }),
  );
}

const accepted = (role: string, auth: unknown = null) =>
  jsonResponse(200, { membership: { role, teamId: TEAM_ID, teamName: 'Coro' }, auth });

describe('accept invitation page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('rejects a link without its key on the client', () => {
    renderAt(ACCEPT);
    expect(screen.getByText('This invitation link is not valid.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('accepts once on load, even under StrictMode, and leads to the team', async () => {
    storeSession();
    answer(() => accepted('viewer'));
    renderAt(`${ACCEPT}?key=k1`);
    expect(await screen.findByText('You have joined Coro as Viewer.')).toBeTruthy();
    expect(acceptBodies()).toEqual([{ token: 'k1' }]);
    expect(screen.getByRole('link', { name: 'Go to the team' }).getAttribute('href')).toBe(
      `/teams/${TEAM_ID}`,
    );
    expect(screen.queryByText(/upload app/)).toBeNull();
    // Signed in: the call carries the session, so the server can match the invitee.
    const sent = sentRequests(fetchMock).find((request) => request.path === ACCEPT);
    expect(sent?.headers.Authorization).toMatch(/^Bearer access-/);
  });

  it('points contributors to the upload app', async () => {
    answer(() => accepted('uploader'));
    renderAt(`${ACCEPT}?key=k1`);
    expect(await screen.findByText('You have joined Coro as Contributor.')).toBeTruthy();
    // The upload app first, as the primary action; the team app second.
    const links = screen.getAllByRole('link');
    const upload = screen.getByRole('link', { name: 'Open the upload app' });
    const team = screen.getByRole('link', { name: 'Go to the team' });
    expect(upload.getAttribute('href')).toBe('/upload');
    expect(links.indexOf(upload)).toBeLessThan(links.indexOf(team));
    expect(upload.className).toContain('MuiButton-contained');
    expect(team.className).toContain('MuiButton-outlined');
  });

  it('completes a new invited account with a password, then signs in with the answer', async () => {
    answer((body) =>
      (body as { password?: string }).password === undefined
        ? errorResponse(409, 'newInvitedAccountRequired', {
            email: INVITED,
            teamName: 'Coro',
            inviterName: 'Olga',
          })
        : accepted('admin', tokenSet()),
    );
    const { manager } = renderAt(`${ACCEPT}?key=k1`);
    const email = await screen.findByDisplayValue(INVITED);
    expect(screen.getByText('Olga invited you to join Coro.')).toBeTruthy();
    expect((email as HTMLInputElement).readOnly).toBe(true);
    expect(
      screen.getByText('Choose a password to create your account and join the team.'),
    ).toBeTruthy();

    type('Password *', 'weak');
    type('Confirm password *', 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeTruthy();

    type('Password *', 'Secret-pass-1');
    type('Confirm password *', 'Secret-pass-2');
    fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();

    type('Confirm password *', 'Secret-pass-1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('You have joined Coro as Administrator.')).toBeTruthy();
    expect(acceptBodies()).toEqual([{ token: 'k1' }, { token: 'k1', password: 'Secret-pass-1' }]);
    expect(manager.getSnapshot().status).toBe('signedIn');
  });

  it('keeps the registration form when the password is refused', async () => {
    answer((body) =>
      (body as { password?: string }).password === undefined
        ? errorResponse(409, 'newInvitedAccountRequired', { email: INVITED })
        : errorResponse(400, 'invalidPassword'),
    );
    renderAt(`${ACCEPT}?key=k1`);
    await screen.findByDisplayValue(INVITED);
    type('Password *', 'Secret-pass-1');
    type('Confirm password *', 'Secret-pass-1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('The password is not valid.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create account and join' })).toBeTruthy();
  });

  it('asks an invitee with an account to sign in, and comes back here afterwards', async () => {
    answer(() => errorResponse(401, 'notLoggedIn', { email: INVITED }));
    const { router } = renderAt(`${ACCEPT}?key=k1`);
    expect(
      await screen.findByText(
        `You have to login as the invited e-mail: sign in as ${INVITED} to accept the invitation.`,
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('sign-in page')).toBeTruthy();
    expect(router.state.location.search).toBe(`?team=${TEAM_ID}`);
    expect(sessionStorage.getItem('signInRedirect')).toBe(`${ACCEPT}?key=k1`);
  });

  it('signed in as someone else, signs out and opens the same invitation as the invited address', async () => {
    storeSession();
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
        'POST /auth/signout': () => jsonResponse(200, {}),
        [`POST ${ACCEPT}`]: () =>
          localStorage.getItem('AccessToken') === null
            ? errorResponse(409, 'newInvitedAccountRequired', {
                email: INVITED,
                teamName: 'Coro',
                inviterName: null,
              })
            : errorResponse(403, 'emailMismatch', {
                email: INVITED,
                teamName: 'Coro',
                inviterName: null,
              }),
      }),
    );
    const { router, manager } = renderAt(`${ACCEPT}?key=k1`);
    expect(
      await screen.findByText(
        `This invitation is for ${INVITED}, but you are signed in with another account.`,
      ),
    ).toBeTruthy();
    expect(screen.getByText('You are invited to join Coro.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: `Sign out and continue as ${INVITED}` }));
    expect(await screen.findByDisplayValue(INVITED)).toBeTruthy();
    expect(manager.getSnapshot().status).toBe('signedOut');
    expect(router.state.location.pathname + router.state.location.search).toBe(`${ACCEPT}?key=k1`);
    expect(acceptBodies()).toEqual([{ token: 'k1' }, { token: 'k1' }]);
  });

  it.each([
    ['invitationAlreadyHandled', 409, 'This invitation has already been accepted or declined.'],
    ['expiredToken', 410, 'This link has expired.'],
    ['invitationNotFound', 404, 'Invitation not found.'],
    ['emailMismatch', 403, 'The invitation is not for the current user'],
  ])('shows %s with a way home', async (code, status, text) => {
    answer(() => errorResponse(status, code));
    renderAt(`${ACCEPT}?key=k1`);
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });
});

describe('reject invitation page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('declines once on load and offers the way home', async () => {
    answer(() => accepted('viewer'));
    renderAt(`${REJECT}?key=k2`);
    expect(
      await screen.findByText('You have declined the invitation. Nothing else is needed.'),
    ).toBeTruthy();
    const bodies = sentRequests(fetchMock)
      .filter((request) => request.path === REJECT)
      .map((request) => request.body);
    expect(bodies).toEqual([{ token: 'k2' }]);
    expect(screen.getByRole('link', { name: 'Back to home' })).toBeTruthy();
  });

  it('rejects a link without its key on the client', () => {
    renderAt(REJECT);
    expect(screen.getByText('This link to decline the invitation is not valid.')).toBeTruthy();
  });
});
