import { describe, expect, it } from 'vitest';
import {
  fileFromResponse,
  initialCollectionId,
  initialTeamId,
  readShareChoice,
  readSharedFiles,
  rememberShareChoice,
  removeSharedFiles,
  SHARE_CACHE,
  shareIdFromSearch,
} from './shared-files';
// The files as served (public/): read as text by Vite.
import manifestText from '../../../../public/manifest.webmanifest?raw';
import worker from '../../../../public/sw.js?raw';

const ID = '1764300000000-0b7d4f0e-7c1a-4a8e-9a55-3f1f0c2b9d11';
const ORIGIN = 'https://raccolta.test';

/** CacheStorage as the worker leaves it: one cache of Responses by URL. */
class FakeCache {
  entries = new Map<string, Response>();
  keys = () => Promise.resolve([...this.entries.keys()].map((url) => new Request(url)));
  match = (request: Request) => Promise.resolve(this.entries.get(request.url)?.clone());
  delete = (request: Request) => Promise.resolve(this.entries.delete(request.url));
}

function fakeStorage(cache: FakeCache | null) {
  return {
    has: (name: string) => Promise.resolve(cache !== null && name === SHARE_CACHE),
    open: () => Promise.resolve(cache),
  } as unknown as CacheStorage;
}

/**
 * A kept entry as Cache Storage gives it back. Its body is the page's own Blob (jsdom's File does
 * not read the Blob of Node's Response, a browser's does).
 */
function kept(name: string, body: string, type: string, lastModified: number): Response {
  const entry = {
    headers: new Headers({
      'Content-Type': type,
      'X-File-Name': encodeURIComponent(name),
      'X-Last-Modified': String(lastModified),
    }),
    blob: () => Promise.resolve(new Blob([body], { type })),
    clone: () => entry,
  };
  return entry as unknown as Response;
}

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  } as Storage;
}

describe('shareIdFromSearch', () => {
  it('takes the id the worker makes and nothing else', () => {
    expect(shareIdFromSearch(`?id=${ID}`)).toBe(ID);
    expect(shareIdFromSearch('?id=invalid')).toBeNull();
    expect(shareIdFromSearch('?id=../__shell')).toBeNull();
    expect(shareIdFromSearch('')).toBeNull();
  });
});

describe('the shared files kept by the worker', () => {
  it('come back in the order shared, with their names, types and dates', async () => {
    const cache = new FakeCache();
    cache.entries.set(
      `${ORIGIN}/__share/${ID}/1`,
      kept('Strand è bello.jpg', 'b', 'image/jpeg', 2),
    );
    cache.entries.set(`${ORIGIN}/__share/${ID}/0`, kept('a 1%.png', 'aa', 'image/png', 1));
    cache.entries.set(`${ORIGIN}/__share/1-other/0`, kept('other.png', 'x', 'image/png', 3));
    const files = await readSharedFiles(ID, fakeStorage(cache));
    expect(files.map((file) => [file.name, file.type, file.size, file.lastModified])).toEqual([
      ['a 1%.png', 'image/png', 2, 1],
      ['Strand è bello.jpg', 'image/jpeg', 1, 2],
    ]);
    await removeSharedFiles(ID, fakeStorage(cache));
    expect([...cache.entries.keys()]).toEqual([`${ORIGIN}/__share/1-other/0`]);
    expect(await readSharedFiles(ID, fakeStorage(cache))).toEqual([]);
  });

  it('are none when the cache is gone', async () => {
    expect(await readSharedFiles(ID, fakeStorage(null))).toEqual([]);
    await expect(removeSharedFiles(ID, fakeStorage(null))).resolves.toBeUndefined();
  });

  it('skips an entry without a readable name', async () => {
    const nameless = kept('x', 'x', 'image/png', 1);
    nameless.headers.delete('X-File-Name');
    expect(await fileFromResponse(nameless)).toBeNull();
    const bad = kept('x', 'x', 'image/png', 1);
    bad.headers.set('X-File-Name', '%E0%A4%A');
    expect(await fileFromResponse(bad)).toBeNull();
  });
});

describe('the remembered collection', () => {
  it('is kept per account', () => {
    const storage = memoryStorage();
    rememberShareChoice('user-a', { teamId: 't1', collectionId: 'c1' }, storage);
    expect(readShareChoice('user-a', storage)).toEqual({ teamId: 't1', collectionId: 'c1' });
    expect(readShareChoice('user-b', storage)).toBeNull();
    storage.setItem('raccolta:share-choice:user-b', '{not json');
    expect(readShareChoice('user-b', storage)).toBeNull();
    storage.setItem('raccolta:share-choice:user-b', '{"teamId":1,"collectionId":"c"}');
    expect(readShareChoice('user-b', storage)).toBeNull();
  });

  it('preselects the remembered team and collection while they still accept uploads', () => {
    const remembered = { teamId: 't2', collectionId: 'c2' };
    expect(initialTeamId(['t1', 't2'], remembered)).toBe('t2');
    expect(initialTeamId(['t1'], remembered)).toBe('t1');
    expect(initialTeamId([], remembered)).toBeNull();
    expect(initialCollectionId('t2', ['c1', 'c2'], remembered)).toBe('c2');
    // Gone, or no longer open to the member: the member chooses (or the only one is taken).
    expect(initialCollectionId('t2', ['c1', 'c3'], remembered)).toBeNull();
    expect(initialCollectionId('t2', ['c1'], remembered)).toBe('c1');
    expect(initialCollectionId('t1', ['c2', 'c3'], remembered)).toBeNull();
    expect(initialCollectionId('t1', ['c2', 'c3'], null)).toBeNull();
  });
});

describe('the manifest', () => {
  const manifest = JSON.parse(manifestText) as {
    scope: string;
    share_target: {
      action: string;
      method: string;
      enctype: string;
      params: {
        title?: string;
        text?: string;
        url?: string;
        files: { name: string; accept: string[] }[];
      };
    };
  };

  it('declares a share target the worker answers', () => {
    const target = manifest.share_target;
    // A POST share with files must be multipart (Web Share Target), inside the app's scope.
    expect(target.method).toBe('POST');
    expect(target.enctype).toBe('multipart/form-data');
    expect(target.action.startsWith(manifest.scope)).toBe(true);
    expect(target.params).toMatchObject({ title: 'title', text: 'text', url: 'url' });
    expect(target.params.files).toHaveLength(1);
    const [files] = target.params.files;
    expect(files?.accept).toEqual(
      expect.arrayContaining(['image/*', 'video/*', 'application/pdf']),
    );
    for (const type of files?.accept ?? [])
      expect(type).toMatch(/^(\.[a-z0-9]+|[a-z]+\/[a-z0-9.+*-]+)$/);
    // The worker handles exactly that action and field, and keeps the files where the page reads.
    expect(worker).toContain(`const SHARE_ACTION = '${target.action}';`);
    expect(worker).toContain(`form.getAll('${files?.name}')`);
    expect(worker).toContain(`const SHARE_CACHE = '${SHARE_CACHE}';`);
  });
});
