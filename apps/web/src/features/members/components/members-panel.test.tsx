import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
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
import { ADA, createTestSessionManager, storeSession } from '../../../test/session-fixtures';
import { member, self, TEAM_ID } from '../../../test/team-fixtures';
import { MembersPanel } from './members-panel';

const fetchMock = vi.fn<typeof fetch>();
const MEMBERS = `/teams/${TEAM_ID}/members`;
const BEA = member({ nickname: 'Bea', role: 'uploader', status: 'active' });
const CREDENTIALS = {
  teamId: TEAM_ID,
  teamAlias: 'choir',
  username: 'carlo.rossi',
  password: 'Xy7-generated-Pass_01',
  teamCode: 'K7QM3XR',
};

function renderPanel(
  handlers: Record<string, (body: unknown) => Response> = {},
  onSelectMember?: (member: { userId: string }) => void,
) {
  const list = vi.fn(() =>
    jsonResponse(200, { members: [self('owner'), BEA], pagination: { lastKey: null } }),
  );
  fetchMock.mockImplementation(fetchRoutes({ [`GET ${MEMBERS}`]: list, ...handlers }));
  render(
    <AppProviders
      manager={createTestSessionManager().manager}
      queryClient={createTestQueryClient()}
    >
      <MembersPanel
        teamId={TEAM_ID}
        actor={{ userId: ADA.sub, role: 'owner' }}
        onSelectMember={onSelectMember}
      />
    </AppProviders>,
  );
  return list;
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label, { exact: false, selector: 'input' }), {
    target: { value },
  });
}

async function chooseAction(name: string, action: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  fireEvent.click(screen.getByRole('menuitem', { name: action }));
}

describe('members panel', () => {
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

  it('offers each member as a button that shows the collections they created', async () => {
    const onSelect = vi.fn();
    renderPanel({}, onSelect);
    fireEvent.click(
      await screen.findByRole('button', { description: 'Collections created by Bea' }),
    );
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ userId: BEA.userId }));
    // The menu stays its own button beside it.
    expect(screen.getByRole('button', { name: 'Actions for Bea' })).toBeTruthy();
  });

  it('searches by nickname prefix after the typing pauses', async () => {
    renderPanel();
    await screen.findByText('Bea');
    type('Search by name', 'Be');
    await vi.waitFor(
      () => {
        const urls = fetchMock.mock.calls.map(([input]) =>
          typeof input === 'string' ? input : '',
        );
        expect(urls.some((url) => url.includes('prefix=Be'))).toBe(true);
      },
      { timeout: 2000 },
    );
  });

  it('invites by e-mail with the default role and the interface language', async () => {
    const post = vi.fn(() => jsonResponse(201, { member: member({ status: 'invited' }) }));
    renderPanel({ [`POST ${MEMBERS}`]: post });
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a member' });
    type('E-mail', 'carla@example.com');
    type('Name in the team', 'Carla');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to carla@example.com.')).toBeTruthy();
    expect(post).toHaveBeenCalledWith({
      email: 'carla@example.com',
      nickname: 'Carla',
      role: 'uploader',
      locale: 'en',
    });
  });

  it('closes and refreshes the list when the member was added but the mail failed', async () => {
    const list = renderPanel({
      [`POST ${MEMBERS}`]: () => errorResponse(502, 'cannotSendInvitationEmail', { member: {} }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    type('E-mail', 'carla@example.com');
    type('Name in the team', 'Carla');
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('The member was added, but the invitation e-mail could not be sent.'),
    ).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(list.mock.calls.length).toBeGreaterThan(1);
  });

  it('keeps a duplicate in the dialog', async () => {
    renderPanel({ [`POST ${MEMBERS}`]: () => errorResponse(409, 'nicknameAlreadyExists') });
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    type('E-mail', 'carla@example.com');
    type('Name in the team', 'Bea');
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('This member name already exists')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add a member' })).toBeTruthy();
  });

  it('creates an internal contributor with the role fixed, then shows the credentials once', async () => {
    const post = vi.fn(() =>
      jsonResponse(201, {
        member: member({ type: 'internal', username: 'carlo.rossi' }),
        credentials: CREDENTIALS,
      }),
    );
    renderPanel({ [`POST ${MEMBERS}`]: post });
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Internal contributor' }));
    const role = screen.getByRole('combobox', { name: /Role/ });
    expect(role.getAttribute('aria-disabled')).toBe('true');
    expect(role.textContent).toBe('Contributor');
    type('Username', 'carlo.rossi');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign-in details' });
    expect(post).toHaveBeenCalledWith({ username: 'carlo.rossi', role: 'uploader', locale: 'en' });
    // The short team code, not the alias or the 36-character id, is what the contributor types.
    expect(within(dialog).getByLabelText('Team code')).toHaveProperty('value', 'K7QM3XR');
    expect(
      within(dialog).getByDisplayValue(`${window.location.origin}/upload/signin?team=K7QM3XR`),
    ).toBeTruthy();
    expect(within(dialog).getByDisplayValue('carlo.rossi')).toBeTruthy();
    expect(within(dialog).getByDisplayValue(CREDENTIALS.password)).toBeTruthy();
    expect(within(dialog).getByText('The password is shown only once: copy it now.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses a username under 3 characters on the form, with the rule in the hint', async () => {
    const post = vi.fn(() => jsonResponse(201, {}));
    renderPanel({ [`POST ${MEMBERS}`]: post });
    fireEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Internal contributor' }));
    expect(screen.getByText(/^3 to 50 characters: letters, digits and dots\./)).toBeTruthy();
    type('Username', 'ab');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Username must be at least 3 characters long')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('disables a member only after a confirmation, with a status patch, and says so', async () => {
    const patch = vi.fn(() => jsonResponse(200, { ...BEA, status: 'disabled' }));
    renderPanel({ [`PATCH ${MEMBERS}/${BEA.userId}`]: patch });
    await chooseAction('Bea', 'Disable');
    const dialog = await screen.findByRole('dialog', { name: 'Disable Bea?' });
    expect(patch).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(patch).not.toHaveBeenCalled();

    await chooseAction('Bea', 'Disable');
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Disable Bea?' })).getByRole('button', {
        name: 'Disable',
      }),
    );
    expect(await screen.findByText('Bea has been disabled.')).toBeTruthy();
    expect(patch).toHaveBeenCalledWith([{ op: 'replace', path: '/status', value: 'disabled' }]);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('changes a role among the assignable ones', async () => {
    const patch = vi.fn(() => jsonResponse(200, { ...BEA, role: 'admin' }));
    renderPanel({ [`PATCH ${MEMBERS}/${BEA.userId}`]: patch });
    await chooseAction('Bea', 'Change role');
    const dialog = await screen.findByRole('dialog', { name: 'Change the role of Bea' });
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['Administrator', 'Contributor', 'Viewer']);
    fireEvent.click(screen.getByRole('option', { name: 'Administrator' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bea is now Administrator.')).toBeTruthy();
    expect(patch).toHaveBeenCalledWith([{ op: 'replace', path: '/role', value: 'admin' }]);
  });

  it('breaks long names anywhere in the remove, reset-password and credentials dialogs', async () => {
    const longName = 'Bartholomew-Maximilian-Alexand';
    const longUsername = `${'u'.repeat(25)}.${'v'.repeat(24)}`;
    const long = member({
      nickname: longName,
      role: 'uploader',
      status: 'active',
      type: 'internal',
      username: longUsername,
    });
    const list = vi.fn(() =>
      jsonResponse(200, { members: [self('owner'), long], pagination: { lastKey: null } }),
    );
    fetchMock.mockImplementation(
      fetchRoutes({
        [`GET ${MEMBERS}`]: list,
        [`POST ${MEMBERS}/${long.userId}/new-password`]: () =>
          jsonResponse(200, { ...CREDENTIALS, username: longUsername }),
      }),
    );
    render(
      <AppProviders
        manager={createTestSessionManager().manager}
        queryClient={createTestQueryClient()}
      >
        <MembersPanel teamId={TEAM_ID} actor={{ userId: ADA.sub, role: 'owner' }} />
      </AppProviders>,
    );
    const breaksAnywhere = (element: HTMLElement) =>
      expect(getComputedStyle(element).overflowWrap, element.textContent).toBe('anywhere');

    await chooseAction(longName, 'Remove');
    const remove = await screen.findByRole('dialog', { name: `Remove ${longName}?` });
    breaksAnywhere(within(remove).getByRole('heading'));
    breaksAnywhere(within(remove).getByText(/will no longer have access/));
    fireEvent.click(within(remove).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await chooseAction(longName, 'Reset password');
    const reset = await screen.findByRole('dialog', {
      name: `Reset the password of ${longName}?`,
    });
    breaksAnywhere(within(reset).getByRole('heading'));
    breaksAnywhere(within(reset).getByText(/A new password is generated/));
    fireEvent.click(within(reset).getByRole('button', { name: 'Generate a new password' }));
    const credentials = await screen.findByRole('dialog', { name: 'Sign-in details' });
    breaksAnywhere(
      within(credentials).getByText(`Give these details to ${longUsername}.`, { exact: false }),
    );
  });

  it('removes after a confirmation, sending no body, and shows a failure as a toast', async () => {
    let status = 500;
    renderPanel({
      [`DELETE ${MEMBERS}/${BEA.userId}`]: () =>
        status === 204 ? new Response(null, { status }) : errorResponse(status, 'generic'),
    });
    await chooseAction('Bea', 'Remove');
    const dialog = await screen.findByRole('dialog', { name: 'Remove Bea?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('An error occurred')).toBeTruthy();

    status = 204;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Bea has been removed from the team.')).toBeTruthy();
    const sent = sentRequests(fetchMock).filter((request) => request.method === 'DELETE');
    expect(sent.at(-1)?.body).toBeUndefined();
    expect(sent.at(-1)?.headers['Content-Type']).toBeUndefined();
  });
});
