import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { errorResponse, jsonResponse, sentRequests, stubMatchMedia } from '../../../test/providers';
import { ADA, storeSession, tokenSet } from '../../../test/session-fixtures';
import { TEAM_ID, teamListItem } from '../../../test/team-fixtures';
import {
  collection,
  COLLECTION_ID,
  fetchMock,
  renderUploadApp,
  serveUploadApp,
  submit,
  type,
} from '../test/upload-fixtures';

const OTHER = '0195f0c2-7c1a-7000-8000-0000000000b2';

describe('upload app: sign-in, team and collection', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('scrollTo', vi.fn());
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    sessionStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('signs an internal contributor in with the team code and a new password, inside /upload', async () => {
    const challenge = { session: 'S1', teamId: TEAM_ID, username: 'luca.bianchi' };
    serveUploadApp({
      handlers: {
        'POST /auth/signin': () => errorResponse(403, 'newPasswordRequired', challenge),
        'POST /auth/new-password': () => jsonResponse(200, { result: tokenSet() }),
      },
    });
    const { router } = renderUploadApp('/upload');

    expect(await screen.findByRole('heading', { name: 'Sign in to upload' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/upload/signin');
    type('E-mail or username', 'luca.bianchi');
    type('Password', 'Generated-pass-1');
    type('Team code', 'choir');
    submit('Sign in');

    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    type('New password', 'Contrib-pass-9');
    type('Confirm password', 'Contrib-pass-9');
    submit('Save and sign in');

    // Back in the upload app; the only team opens by itself.
    expect(await screen.findByText('Choose the collection to upload to.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/upload/teams/choir');
    const signIn = sentRequests(fetchMock).find((request) => request.path === '/auth/signin');
    expect(signIn?.body).toEqual({
      username: 'luca.bianchi',
      password: 'Generated-pass-1',
      team: 'choir',
    });
  });

  it('leads back to its own sign-in from the forgot-password and sign-up pages', async () => {
    serveUploadApp({ handlers: {} });
    const { router } = renderUploadApp('/upload');
    expect(await screen.findByRole('heading', { name: 'Sign in to upload' })).toBeTruthy();
    // Internal contributors have no e-mail for a reset link: they are told whom to ask.
    const askManager =
      'Signing in with a username and a team code? Ask your team’s manager for a new password.';
    expect(screen.getByText(askManager)).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/forgot');
    expect(screen.getByText(askManager)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to upload' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/upload/signin');

    fireEvent.click(screen.getByRole('link', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect(router.state.location.search).toBe('?app=upload');
    fireEvent.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to upload' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/upload/signin');
  });

  it('sends a signed-out visitor to its sign-in and back to the collection asked for', async () => {
    serveUploadApp({
      handlers: { 'POST /auth/signin': () => jsonResponse(200, { result: tokenSet() }) },
    });
    const { router } = renderUploadApp(`/upload/teams/choir/collections/${COLLECTION_ID}`);
    expect(await screen.findByRole('heading', { name: 'Sign in to upload' })).toBeTruthy();
    expect(screen.getByText('Sign in to upload to the collection.')).toBeTruthy();
    type('E-mail or username', 'ada@example.com');
    type('Password', 'correct horse');
    submit('Sign in');
    expect(await screen.findByRole('button', { name: 'Take photos' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/upload/teams/choir/collections/${COLLECTION_ID}`);
  });

  it('lists only the teams where the user can upload', async () => {
    storeSession();
    serveUploadApp({
      teams: [
        teamListItem({
          teamId: TEAM_ID,
          name: 'Choir',
          starAlias: 'choir',
          memberRole: 'uploader',
        }),
        teamListItem({ teamId: OTHER, name: 'Orchestra', starAlias: null, memberRole: 'admin' }),
        teamListItem({
          teamId: '0195f0c2-7c1a-7000-8000-0000000000b3',
          name: 'Archive',
          memberRole: 'viewer',
        }),
      ],
    });
    renderUploadApp('/upload');
    const list = await screen.findByRole('list', { name: 'Teams' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      expect.stringContaining('Choir'),
      expect.stringContaining('Orchestra'),
    ]);
    expect(links[0]?.getAttribute('href')).toBe('/upload/teams/choir');
    expect(links[1]?.getAttribute('href')).toBe(`/upload/teams/${OTHER}`);
  });

  it('tells a user without any team to upload to what to do', async () => {
    storeSession();
    serveUploadApp({ teams: [teamListItem({ memberRole: 'viewer' })] });
    renderUploadApp('/upload');
    expect(await screen.findByText(/None of your teams lets you upload files/)).toBeTruthy();
  });

  it('offers a contributor its own and the shared collections, and a new one in a collaborative team', async () => {
    storeSession();
    const created = collection({
      collectionId: '0195f0c2-7c1a-7000-8000-0000000000c9',
      name: 'Trip',
      mode: 'owned',
    });
    serveUploadApp({
      collections: [
        collection({ name: 'Mine', mode: 'owned', createdBy: ADA.sub }),
        collection({
          collectionId: '0195f0c2-7c1a-7000-8000-0000000000c2',
          name: 'Shared',
          mode: 'collaborative',
          createdBy: OTHER,
        }),
        collection({
          collectionId: '0195f0c2-7c1a-7000-8000-0000000000c3',
          name: 'Someone else’s',
          mode: 'owned',
          createdBy: OTHER,
        }),
      ],
      handlers: {
        [`POST /teams/${TEAM_ID}/collections`]: () => jsonResponse(201, created),
        [`GET /teams/${TEAM_ID}/collections/${created.collectionId}`]: () =>
          jsonResponse(200, created),
      },
    });
    const { router } = renderUploadApp('/upload/teams/choir');
    const list = await screen.findByRole('list', { name: 'Collections' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([expect.stringContaining('Mine'), expect.stringContaining('Shared')]);

    fireEvent.click(screen.getByRole('button', { name: 'New collection' }));
    const dialog = await screen.findByRole('dialog', { name: 'New collection' });
    // Spec §6: a contributor cannot make it collaborative (shared).
    expect(
      within(dialog).getByRole('radio', { name: 'Contributors can see and upload' }),
    ).toHaveProperty('disabled', true);
    fireEvent.change(within(dialog).getByLabelText('Collection name', { exact: false }), {
      target: { value: 'Trip' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('button', { name: 'Take photos' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(
      `/upload/teams/choir/collections/${created.collectionId}`,
    );
  });

  it('gives no New collection to a contributor of a controlled team, and tells a viewer', async () => {
    storeSession();
    serveUploadApp({ teamMode: 'controlled' });
    renderUploadApp('/upload/teams/choir');
    expect(await screen.findByRole('list', { name: 'Collections' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New collection' })).toBeNull();
    cleanup();

    serveUploadApp({ role: 'viewer' });
    renderUploadApp('/upload/teams/choir');
    expect(
      await screen.findByText('As a viewer you cannot upload files to this team.'),
    ).toBeTruthy();
  });

  it('speaks Italian', async () => {
    await i18n.changeLanguage('it');
    renderUploadApp('/upload/signin');
    serveUploadApp();
    expect(await screen.findByRole('heading', { name: 'Accedi per caricare' })).toBeTruthy();
    expect(screen.getByText(/Chiedi una nuova password a chi gestisce il tuo team/)).toBeTruthy();
  });
});
