import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installImageGuards } from '../../../app/image-guards';
import { stubMatchMedia } from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';
import {
  errorResponse,
  fetchMock,
  fileItem,
  FILES_PATH,
  jsonResponse,
  renderFilesPage,
  serve,
  stubDesktop,
} from '../test/files-fixtures';

const FIRST = fileItem({
  name: 'first.jpg',
  thumbnailUrl: 'https://cdn.example/thumb/first.webp',
  previewUrl: 'https://cdn.example/preview/first.webp',
  readAt: null,
});
const SECOND = fileItem({ name: 'second.pdf', contentType: 'application/pdf', size: 1_500_000 });
const THIRD = fileItem({
  name: 'third.png',
  contentType: 'image/png',
  previewUrl: 'https://cdn.example/preview/third.webp',
});
const FILES = [FIRST, SECOND, THIRD];

/** What GET …/files/{id} answers: a fresh preview link, and the file read. */
function detailHandlers() {
  return Object.fromEntries(
    FILES.map((file) => [
      `GET ${FILES_PATH}/${file.fileId}`,
      () =>
        jsonResponse(200, {
          ...file,
          previewUrl: file.previewUrl && `${file.previewUrl}?fresh`,
          readAt: '2025-03-07T10:00:00.000Z',
        }),
    ]),
  );
}

function requested(method: string, path: string): number {
  return fetchMock.mock.calls.filter(([input, init]) => {
    const url = new URL(typeof input === 'string' ? input : '', 'http://localhost');
    return (init?.method ?? 'GET') === method && url.pathname === `/api${path}`;
  }).length;
}

/** XMLHttpRequest as the uploads use it, answered by the test. */
class FakeXhr {
  static instances: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.instances.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

/** The name of the `file` part of an upload's multipart body. */
function fileName(xhr: FakeXhr): string | undefined {
  expect(xhr.body).toBeInstanceOf(FormData);
  const part = (xhr.body as FormData).get('file');
  return part instanceof File ? part.name : undefined;
}

async function nextXhr(count: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.instances).toHaveLength(count));
  const xhr = FakeXhr.instances[count - 1];
  if (xhr === undefined) throw new Error('no upload');
  return xhr;
}

function chooseFiles(files: File[]) {
  const input = screen.getByLabelText('Upload files', { selector: 'input' });
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
}

async function chooseAction(name: string, action: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  fireEvent.click(screen.getByRole('menuitem', { name: action }));
}

describe('file preview and actions', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubDesktop();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.instances = [];
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    fetchMock.mockReset();
    localStorage.clear();
  });

  it('previews across the loaded files with buttons and arrow keys, then refreshes on close', async () => {
    const list = serve({ files: FILES, handlers: detailHandlers() });
    renderFilesPage();
    fireEvent.click(await screen.findByText('first.jpg'));

    const dialog = await screen.findByRole('dialog', { name: 'first.jpg' });
    const image = await within(dialog).findByRole('img', { name: 'first.jpg' });
    expect(image.getAttribute('src')).toBe(`${FIRST.previewUrl}?fresh`);
    expect(requested('GET', `${FILES_PATH}/${FIRST.fileId}`)).toBe(1);
    expect(within(dialog).getByRole('progressbar', { name: 'Loading the preview…' })).toBeTruthy();
    fireEvent.load(image);
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect(within(dialog).getByText('1 of 3')).toBeTruthy();
    const previous = within(dialog).getByRole('button', { name: 'Previous file' });
    const next = within(dialog).getByRole('button', { name: 'Next file' });
    expect((previous as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeTruthy();

    // Images cannot be dragged or right-clicked away, in the preview as everywhere.
    const removeGuards = installImageGuards();
    expect(fireEvent.contextMenu(image)).toBe(false);
    expect(fireEvent.dragStart(image)).toBe(false);
    removeGuards();

    // The same dialog shows the next file: its title (the dialog's name) follows.
    const title = (name: string) => within(dialog).findByRole('heading', { name });
    fireEvent.click(next);
    expect(await title('second.pdf')).toBeTruthy();
    expect(await within(dialog).findByText('There is no preview for this file.')).toBeTruthy();
    expect(within(dialog).getByText('1.5 MB')).toBeTruthy();
    expect(within(dialog).getByRole('img', { name: 'PDF document' })).toBeTruthy();
    expect(within(dialog).getAllByRole('button', { name: 'Download' })).toHaveLength(1);

    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(await title('third.png')).toBeTruthy();
    expect((next as HTMLButtonElement).disabled).toBe(true);
    expect((previous as HTMLButtonElement).disabled).toBe(false);
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(await title('third.png')).toBeTruthy();
    const broken = await within(dialog).findByRole('img', { name: 'third.png' });
    fireEvent.error(broken);
    // Spec §2: a preview failure shows the loadingFile alert; Retry fetches a fresh link and
    // loads the picture again.
    expect(await within(dialog).findByText('The file could not be loaded.')).toBeTruthy();
    expect(within(dialog).queryByRole('img', { name: 'third.png' })).toBeNull();
    const fetched = requested('GET', `${FILES_PATH}/${THIRD.fileId}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('img', { name: 'third.png' })).toBeTruthy();
    expect(within(dialog).queryByText('The file could not be loaded.')).toBeNull();
    await vi.waitFor(() =>
      expect(requested('GET', `${FILES_PATH}/${THIRD.fileId}`)).toBe(fetched + 1),
    );

    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    expect(await title('second.pdf')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'second.pdf' })).toBe(dialog);

    const listCalls = list.mock.calls.length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await vi.waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(listCalls));
  });

  it('on a phone: swipes between files, keeps the counter, and Back closes it in the collection', async () => {
    stubMatchMedia();
    const list = serve({ files: FILES, handlers: detailHandlers() });
    const { router } = renderFilesPage();
    const start = router.state.location;
    fireEvent.click(await screen.findByText('first.jpg'));
    const dialog = await screen.findByRole('dialog', { name: 'first.jpg' });
    expect(within(dialog).getByText('1 of 3')).toBeTruthy();
    // Opening it added a history entry at the same address.
    expect(router.state.historyAction).toBe('PUSH');
    expect(router.state.location.pathname).toBe(start.pathname);

    const stage = within(dialog).getByRole('button', { name: 'Next file' }).parentElement;
    if (stage === null) throw new Error('no stage');
    const swipe = (fromX: number, toX: number, toY = 300) => {
      fireEvent.touchStart(stage, { touches: [{ clientX: fromX, clientY: 300 }] });
      fireEvent.touchEnd(stage, { touches: [], changedTouches: [{ clientX: toX, clientY: toY }] });
    };
    const title = (name: string) => within(dialog).findByRole('heading', { name });
    swipe(300, 80);
    expect(await title('second.pdf')).toBeTruthy();
    expect(within(dialog).getByText('2 of 3')).toBeTruthy();
    // A short or mostly vertical move is no swipe.
    swipe(300, 270);
    swipe(300, 200, 600);
    expect(await title('second.pdf')).toBeTruthy();
    swipe(300, 80);
    expect(await title('third.png')).toBeTruthy();
    // A swipe from the left edge goes to the previous file, not out of the collection.
    swipe(2, 250);
    expect(await title('second.pdf')).toBeTruthy();
    expect(router.state.location.pathname).toBe(start.pathname);

    const listCalls = list.mock.calls.length;
    await act(() => router.navigate(-1));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.key).toBe(start.key);
    expect(screen.getByRole('heading', { level: 1, name: 'Spring concert' })).toBeTruthy();
    await vi.waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(listCalls));

    // Closing with its button goes back over its entry too: one Back leaves nothing behind.
    fireEvent.click(await screen.findByText('first.jpg'));
    const again = await screen.findByRole('dialog', { name: 'first.jpg' });
    fireEvent.click(within(again).getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await vi.waitFor(() => expect(router.state.location.key).toBe(start.key));
  });

  it('shows loadingFile when the preview cannot be fetched', async () => {
    serve({
      files: FILES,
      handlers: { [`GET ${FILES_PATH}/${FIRST.fileId}`]: () => errorResponse(404, 'notFound') },
    });
    renderFilesPage();
    fireEvent.click(await screen.findByText('first.jpg'));
    const dialog = await screen.findByRole('dialog', { name: 'first.jpg' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'The file could not be loaded.',
    );
  });

  it('downloads through the signed link, and says so when the link fails', async () => {
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    const url = 'https://files.example/api/storage/signed-token';
    const link = vi.fn(() => jsonResponse(200, { url }));
    serve({
      files: FILES,
      handlers: {
        [`GET ${FILES_PATH}/${SECOND.fileId}/download`]: link,
        [`GET ${FILES_PATH}/${THIRD.fileId}/download`]: () => errorResponse(403, 'forbidden'),
      },
    });
    renderFilesPage();
    await chooseAction('second.pdf', 'Download');
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.href).toBe(url);
    expect(anchor.hasAttribute('download')).toBe(true);
    expect(anchor.isConnected).toBe(false);

    await chooseAction('third.png', 'Download');
    expect(await screen.findByText('The file could not be downloaded.')).toBeTruthy();
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('marks a damaged file and downloads it only after a warning', async () => {
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    const damaged = { ...SECOND, damaged: true };
    const link = vi.fn(() => jsonResponse(200, { url: 'https://files.example/api/storage/t' }));
    serve({
      files: [FIRST, damaged, THIRD],
      handlers: { [`GET ${FILES_PATH}/${SECOND.fileId}/download`]: link },
    });
    renderFilesPage();
    const row = (await screen.findByText('second.pdf')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Damaged')).toBeTruthy();
    expect(
      within(screen.getByText('first.jpg').closest('tr') as HTMLElement).queryByText('Damaged'),
    ).toBeNull();

    await chooseAction('second.pdf', 'Download');
    const dialog = await screen.findByRole('dialog', { name: 'Download a damaged file?' });
    expect(
      within(dialog).getByText(
        'The stored copy of “second.pdf” no longer matches what was uploaded, so the download may be corrupt. Owners and admins can restore it from a backup.',
      ),
    ).toBeTruthy();
    expect(link).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(link).not.toHaveBeenCalled();

    await chooseAction('second.pdf', 'Download');
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Download a damaged file?' })).getByRole(
        'button',
        { name: 'Download anyway' },
      ),
    );
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(link).toHaveBeenCalledTimes(1);
  });

  it('asks before deleting, then deletes and refreshes the list', async () => {
    const remove = vi.fn(() => new Response(null, { status: 204 }));
    const list = serve({
      files: FILES,
      handlers: { [`DELETE ${FILES_PATH}/${SECOND.fileId}`]: remove },
    });
    renderFilesPage();
    await chooseAction('second.pdf', 'Delete');
    const dialog = await screen.findByRole('dialog', { name: 'Delete “second.pdf”?' });
    expect(remove).not.toHaveBeenCalled();
    const listCalls = list.mock.calls.length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('“second.pdf” has been moved to the trash.')).toBeTruthy();
    expect(remove).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(listCalls));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('marks a file unread and read again from its menu, then refreshes the list', async () => {
    const unread = vi.fn(() => new Response(null, { status: 204 }));
    const read = vi.fn(() => new Response(null, { status: 204 }));
    const list = serve({
      role: 'viewer',
      files: FILES,
      handlers: {
        [`DELETE ${FILES_PATH}/${SECOND.fileId}/read`]: unread,
        [`PUT ${FILES_PATH}/${FIRST.fileId}/read`]: read,
      },
    });
    renderFilesPage();
    const listCalls = () => list.mock.calls.length;
    await screen.findByText('second.pdf');
    const before = listCalls();
    // second.pdf was read: its menu offers "Mark as unread".
    await chooseAction('second.pdf', 'Mark as unread');
    await vi.waitFor(() => expect(unread).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    // first.jpg was not: its menu offers "Mark as read".
    await chooseAction('first.jpg', 'Mark as read');
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(1));
    expect(requested('GET', `${FILES_PATH}/${FIRST.fileId}`)).toBe(0);
  });

  it('marks all files read, says so and refreshes; a failure is a toast', async () => {
    const readAll = vi.fn(() => new Response(null, { status: 204 }));
    const collectionPath = FILES_PATH.replace(/\/files$/, '');
    const list = serve({ files: FILES, handlers: { [`PUT ${collectionPath}/read`]: readAll } });
    renderFilesPage();
    await screen.findByText('second.pdf');
    const before = list.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(
      await screen.findByText('Every file of this collection is marked as read.'),
    ).toBeTruthy();
    expect(readAll).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(before));
    cleanup();

    serve({
      files: FILES,
      handlers: { [`PUT ${collectionPath}/read`]: () => errorResponse(500, 'generic') },
    });
    renderFilesPage();
    await screen.findByText('second.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('The read mark could not be changed. Try again.')).toBeTruthy();
  });

  it('uploads one file at a time as multipart, shows a translated 413 and retries', async () => {
    const uploaded = fileItem({ name: 'small.png', uploadedBy: ADA.sub });
    const list = serve();
    renderFilesPage();
    await screen.findByText('No files yet');
    const big = new File(['x'.repeat(64)], 'big.jpg', { type: 'image/jpeg' });
    const small = new File(['y'], 'small.png', { type: 'image/png' });
    chooseFiles([big, small]);

    const first = await nextXhr(1);
    expect(first.method).toBe('POST');
    expect(first.url).toBe(`/api${FILES_PATH}`);
    expect(first.headers.Authorization).toMatch(/^Bearer access-/);
    expect(fileName(first)).toBe(big.name);
    const panel = screen.getByRole('region', { name: 'Uploads' });
    expect(within(panel).getByText('Waiting')).toBeTruthy();

    first.progress(32, 64);
    expect(within(panel).getByText('50%')).toBeTruthy();
    expect(FakeXhr.instances).toHaveLength(1);
    first.respond(413, { statusCode: 413, errorCode: 'fileTooLarge', message: 'server text' });
    expect(
      await within(panel).findByText('The file is larger than the upload limit.'),
    ).toBeTruthy();

    const second = await nextXhr(2);
    expect(fileName(second)).toBe(small.name);
    const listCalls = list.mock.calls.length;
    second.respond(201, uploaded);
    expect(await within(panel).findByText('Uploaded')).toBeTruthy();
    expect(within(panel).getByRole('status').textContent).toBe('1 of 2 uploaded · 1 failed');
    await vi.waitFor(() => expect(list.mock.calls.length).toBeGreaterThan(listCalls));

    fireEvent.click(within(panel).getByRole('button', { name: 'Retry the upload of big.jpg' }));
    const third = await nextXhr(3);
    expect(fileName(third)).toBe(big.name);
    third.respond(201, fileItem({ name: 'big.jpg' }));
    await vi.waitFor(() =>
      expect(within(panel).getByRole('status').textContent).toBe('2 of 2 uploaded'),
    );
    fireEvent.click(within(panel).getByRole('button', { name: 'Clear the list' }));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
  });

  it('uploads files dropped on the list', async () => {
    serve({ files: FILES });
    renderFilesPage();
    const table = await screen.findByRole('table');
    const dropped = new File(['z'], 'dropped.txt', { type: 'text/plain' });
    const dataTransfer = { types: ['Files'], files: [dropped], dropEffect: 'none' };
    fireEvent.dragEnter(table, { dataTransfer });
    expect(screen.getByText('Drop the files to upload them')).toBeTruthy();
    fireEvent.drop(table, { dataTransfer });
    expect(screen.queryByText('Drop the files to upload them')).toBeNull();
    const xhr = await nextXhr(1);
    expect(fileName(xhr)).toBe(dropped.name);
  });
});
