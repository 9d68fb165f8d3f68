import type { MemberRole } from '@raccolta/contracts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
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
import { member, self, TEAM_ID } from '../../../test/team-fixtures';
import {
  BEA_REF,
  CARLO_REF,
  collection,
  COLLECTIONS_PATH,
  fetchWithQuery,
  listPage,
  renderCollections,
  requestUrl,
} from '../test-fixtures';
import { CreateCollectionDialog } from './create-collection-dialog';

const fetchMock = vi.fn<typeof fetch>();
const MEMBERS_PATH = `/teams/${TEAM_ID}/members`;

function renderCreate(role: MemberRole) {
  const queryClient = createTestQueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const onClose = vi.fn();
  render(
    <AppProviders manager={createTestSessionManager().manager} queryClient={queryClient}>
      <CreateCollectionDialog teamId={TEAM_ID} role={role} onClose={onClose} />
    </AppProviders>,
  );
  return { onClose, invalidate };
}

function field(label: string, container: HTMLElement = document.body) {
  return within(container).getByLabelText<HTMLInputElement>(label, {
    exact: false,
    selector: 'input, textarea',
  });
}

function type(label: string, value: string, container?: HTMLElement) {
  fireEvent.change(field(label, container), { target: { value } });
}

describe('create collection dialog', { timeout: 15_000 }, () => {
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

  it('checks the fields with the contracts rules and sends nothing while they fail', async () => {
    renderCreate('owner');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Collection name required')).toBeTruthy();
    type('Collection name', 'x'.repeat(51));
    type('Description', 'x'.repeat(251));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Collection name is too long (max 50 characters)')).toBeTruthy();
    expect(screen.getByText('Description is too long (max 250 characters)')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each(['owner', 'admin'] as const)(
    'starts shared for an %s, who may make it private',
    async (role) => {
      const post = vi.fn(() => jsonResponse(201, collection({ name: 'Concerts' })));
      fetchMock.mockImplementation(fetchRoutes({ [`POST ${COLLECTIONS_PATH}`]: post }));
      const { onClose } = renderCreate(role);
      const group = screen.getByRole('radiogroup', { name: 'Who sees it and uploads' });
      const shared = within(group).getByRole<HTMLInputElement>('radio', {
        name: 'Contributors can see and upload',
      });
      const owned = within(group).getByRole<HTMLInputElement>('radio', {
        name: 'Only me and the team’s managers',
      });
      expect(shared.checked).toBe(true);
      expect(shared.disabled).toBe(false);
      expect(
        screen.getByText(
          'Every contributor of the team sees this collection and adds files to it.',
        ),
      ).toBeTruthy();
      type('Collection name', '  Concerts ');
      type('Description', ' Spring term ');
      fireEvent.click(screen.getByRole('button', { name: 'Create' }));
      await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
      // The defaults make a collection the contributors can upload into.
      expect(post).toHaveBeenLastCalledWith({
        name: 'Concerts',
        description: 'Spring term',
        mode: 'collaborative',
      });
      cleanup();

      renderCreate(role);
      fireEvent.click(screen.getByRole('radio', { name: 'Only me and the team’s managers' }));
      expect(owned).toBeTruthy();
      expect(
        screen.getByText('Other contributors will not see it or add files to it.'),
      ).toBeTruthy();
      type('Collection name', 'Board');
      fireEvent.click(screen.getByRole('button', { name: 'Create' }));
      await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(2));
      expect(post).toHaveBeenLastCalledWith({ name: 'Board', mode: 'owned' });
    },
  );

  it('keeps a contributor’s collection private, the choice disabled', async () => {
    const post = vi.fn(() => jsonResponse(201, collection({ name: 'Mine' })));
    fetchMock.mockImplementation(fetchRoutes({ [`POST ${COLLECTIONS_PATH}`]: post }));
    const { onClose } = renderCreate('uploader');
    const owned = screen.getByRole<HTMLInputElement>('radio', {
      name: 'Only me and the team’s managers',
    });
    expect(owned.checked).toBe(true);
    expect(owned.disabled).toBe(true);
    expect(
      screen.getByRole<HTMLInputElement>('radio', { name: 'Contributors can see and upload' })
        .disabled,
    ).toBe(true);
    expect(
      screen.getByText(
        'Collections you create are private: only you and the team’s managers see them.',
      ),
    ).toBeTruthy();
    type('Collection name', 'Mine');
    type('Description', '   ');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(post).toHaveBeenCalledWith({ name: 'Mine', mode: 'owned' });
  });

  it('shows a refusal of the server translated in the dialog and keeps the input', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({ [`POST ${COLLECTIONS_PATH}`]: () => errorResponse(403, 'forbidden') }),
    );
    const { onClose, invalidate } = renderCreate('owner');
    type('Collection name', 'Concerts');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const dialog = screen.getByRole('dialog', { name: 'New collection' });
    expect(await within(dialog).findByText('Access Denied')).toBeTruthy();
    expect(field('Collection name').value).toBe('Concerts');
    expect(onClose).not.toHaveBeenCalled();
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('refreshes every collection list of the team once created, and says so', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        [`POST ${COLLECTIONS_PATH}`]: () => jsonResponse(201, collection({ name: 'Concerts' })),
      }),
    );
    const { onClose, invalidate } = renderCreate('owner');
    type('Collection name', 'Concerts');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The collection “Concerts” has been created.')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['collections', TEAM_ID, 'list'] });
  });
});

describe('create and edit from the collections view', { timeout: 15_000 }, () => {
  const TARGET = collection({
    name: 'Rehearsals',
    description: 'Spring term',
    owner: BEA_REF,
    taggedMembers: [CARLO_REF],
  });
  const BEA = member({ userId: BEA_REF.userId, nickname: 'Bea', status: 'active' });
  const GONE = member({ nickname: 'Bruno', status: 'disabled' });

  function serve(patch: (body: unknown) => Response = () => jsonResponse(200, TARGET)) {
    let current = TARGET;
    const list = vi.fn(() => jsonResponse(200, listPage([current])));
    const members = vi.fn(() =>
      jsonResponse(200, { members: [self('owner'), BEA, GONE], pagination: { lastKey: null } }),
    );
    const post = vi.fn(() => jsonResponse(201, collection({ name: 'Concerts' })));
    fetchMock.mockImplementation(
      fetchWithQuery(
        { [`GET ${COLLECTIONS_PATH}`]: list, [`GET ${MEMBERS_PATH}`]: members },
        {
          [`POST ${COLLECTIONS_PATH}`]: post,
          [`PATCH ${COLLECTIONS_PATH}/${TARGET.collectionId}`]: async (body) => {
            const response = patch(body);
            if (response.ok) current = (await response.clone().json()) as typeof TARGET;
            return response;
          },
        },
      ),
    );
    return { list, post };
  }

  async function openEdit() {
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Rehearsals' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    return screen.findByRole('dialog', { name: 'Edit the collection' });
  }

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

  it('creates from the bottom bar and lists again', async () => {
    const { list, post } = serve();
    renderCollections({ role: 'owner' });
    fireEvent.click(await screen.findByRole('button', { name: 'New collection' }));
    const dialog = await screen.findByRole('dialog', { name: 'New collection' });
    type('Collection name', 'Concerts', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The collection “Concerts” has been created.')).toBeTruthy();
    expect(post).toHaveBeenCalledWith({ name: 'Concerts', mode: 'collaborative' });
    await vi.waitFor(() => expect(list).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends only the changed name; Save waits for a change', async () => {
    const patch = vi.fn(() => jsonResponse(200, { ...TARGET, name: 'Concerts' }));
    serve(patch);
    renderCollections({ role: 'admin' });
    const dialog = await openEdit();
    const save = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(save.disabled).toBe(true);
    type('Collection name', ' Rehearsals  ', dialog);
    expect(save.disabled).toBe(true);
    type('Collection name', 'Concerts', dialog);
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await screen.findByText('The collection “Concerts” has been saved.')).toBeTruthy();
    expect(patch).toHaveBeenCalledWith([{ op: 'replace', path: '/name', value: 'Concerts' }]);
    expect(await screen.findByRole('link', { name: 'Concerts' })).toBeTruthy();
  });

  it('clears the description and tags an active member found by name', async () => {
    const patch = vi.fn(() => jsonResponse(200, TARGET));
    serve(patch);
    renderCollections({ role: 'owner' });
    const dialog = await openEdit();
    type('Description', '  ', dialog);
    const tags = within(dialog).getByRole('combobox', { name: 'Tagged members' });
    act(() => tags.focus());
    fireEvent.mouseDown(tags);
    fireEvent.change(tags, { target: { value: 'B' } });
    // The search asks the API for the typed prefix once the typing pauses.
    await vi.waitFor(
      () => {
        const prefixes = fetchMock.mock.calls
          .map(([input]) => requestUrl(input))
          .filter((url) => url.pathname.endsWith(MEMBERS_PATH))
          .map((url) => url.searchParams.get('prefix'));
        expect(prefixes).toContain('B');
      },
      { timeout: 2000 },
    );
    // Only active members are offered: the API refuses to tag anyone else.
    const option = await screen.findByRole('option', { name: 'Bea' }, { timeout: 2000 });
    expect(screen.queryByRole('option', { name: 'Bruno' })).toBeNull();
    fireEvent.click(option);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(patch).toHaveBeenCalled());
    expect(patch).toHaveBeenCalledWith([
      { op: 'remove', path: '/description' },
      { op: 'replace', path: '/tags', value: [CARLO_REF.userId, BEA_REF.userId] },
    ]);
  });

  it('lets an admin share a private collection with the contributors', async () => {
    const patch = vi.fn(() => jsonResponse(200, { ...TARGET, mode: 'collaborative' }));
    serve(patch);
    renderCollections({ role: 'admin' });
    const dialog = await openEdit();
    const owned = within(dialog).getByRole<HTMLInputElement>('radio', {
      name: 'Only Bea and the team’s managers',
    });
    expect(owned.checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Contributors can see and upload' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The collection “Rehearsals” has been saved.')).toBeTruthy();
    expect(patch).toHaveBeenCalledWith([{ op: 'replace', path: '/mode', value: 'collaborative' }]);
    const list = screen.getByRole('list', { name: 'Collections' });
    expect(await within(list).findByText('Shared')).toBeTruthy();
    expect(within(list).queryByText('Private')).toBeNull();
  });

  it('keeps a refused tag inside the dialog, translated', async () => {
    serve(() => errorResponse(400, 'invalidTeamMember'));
    renderCollections({ role: 'owner' });
    const dialog = await openEdit();
    const carlo = within(dialog).getByRole('button', { name: 'Carlo' });
    fireEvent.keyUp(carlo, { key: 'Backspace' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The team member is not valid.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit the collection' })).toBeTruthy();
  });

  it('offers Edit to a contributor only on the collections they created', async () => {
    serve();
    renderCollections({ role: 'uploader' });
    await screen.findByRole('link', { name: 'Rehearsals' });
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Rehearsals' }));
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).toBeNull();
    expect(screen.getAllByRole('menuitem').length).toBe(1);
  });
});
