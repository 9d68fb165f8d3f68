import { defaultOptions } from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeTusServer } from '../test/fake-tus-server';
import { TusUploadQueue, type TusQueueOptions, type UploadEntry } from './tus-queue';
import { findInterruptedUploads, uploadScope } from './upload-storage';

const ENDPOINT = 'http://localhost/api/teams/t1/collections/c1/uploads';
const SCOPE = uploadScope('user-1', 'c1');

function file(name: string, size: number, lastModified = 1_700_000_000_000): File {
  return new File([new Uint8Array(size).fill(7)], name, { type: 'image/jpeg', lastModified });
}

function setup(server: FakeTusServer, options: Partial<TusQueueOptions> = {}) {
  const uploaded: string[] = [];
  const authorization = vi.fn(() => Promise.resolve('Bearer token-1'));
  const queue = new TusUploadQueue({
    endpoint: ENDPOINT,
    scope: SCOPE,
    authorization,
    onUploaded: (fileId) => uploaded.push(fileId),
    httpStack: server,
    retryDelays: [0, 0],
    ...options,
  });
  return { queue, uploaded, authorization };
}

const statuses = (queue: TusUploadQueue) => queue.getSnapshot().map((entry) => entry.status);
const byName = (queue: TusUploadQueue, name: string): UploadEntry => {
  const entry = queue.getSnapshot().find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no entry ${name}`);
  return entry;
};
const count = (server: FakeTusServer, method: string) =>
  server.requests.filter((request) => request.method === method).length;

describe('TusUploadQueue', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('uploads two files at a time with the token, the name and the length of each', async () => {
    const server = new FakeTusServer();
    server.interceptor = (request) => (request.method === 'PATCH' ? 'hold' : null);
    const { queue, uploaded, authorization } = setup(server);

    queue.add([file('a.jpg', 30), file('b.jpg', 40), file('c.jpg', 50)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(2));
    expect(statuses(queue)).toEqual(['uploading', 'uploading', 'queued']);
    const creation = server.requests.find((request) => request.method === 'POST');
    expect(creation?.headers['Upload-Length']).toBe('30');
    expect(creation?.headers['Tus-Resumable']).toBe('1.0.0');
    expect(creation?.headers['Upload-Metadata']).toBe(
      `filename ${btoa('a.jpg')},filetype ${btoa('image/jpeg')}`,
    );

    server.interceptor = null;
    server.held.splice(0).forEach((held) => held.release());
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['done', 'done', 'done']));
    expect(uploaded).toHaveLength(3);
    expect(byName(queue, 'b.jpg')).toMatchObject({ bytesSent: 40, fileId: uploaded[1] });
    expect(server.requests.every((r) => r.headers.Authorization === 'Bearer token-1')).toBe(true);
    // Asked before each request, so a token refreshed meanwhile is the one sent.
    expect(authorization).toHaveBeenCalledTimes(server.requests.length);
    // Finished uploads leave nothing to resume.
    expect(await defaultOptions.urlStorage.findAllUploads()).toEqual([]);
  });

  it('sends a file in chunks and reports the bytes sent', async () => {
    const server = new FakeTusServer();
    const { queue } = setup(server, { chunkSize: 10 });
    const sizes: number[] = [];
    queue.subscribe(() => sizes.push(queue.getSnapshot()[0]?.bytesSent ?? 0));

    queue.add([file('video.mp4', 25)]);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['done']));
    expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.bodySize)).toEqual([
      10, 10, 5,
    ]);
    expect(sizes).toContain(10);
    expect(sizes).toContain(20);
    expect(sizes.at(-1)).toBe(25);
  });

  it('does not queue a file that is already in the queue', () => {
    const server = new FakeTusServer();
    server.interceptor = () => 'hold';
    const { queue } = setup(server);
    const photo = file('a.jpg', 30);
    queue.add([photo]);
    queue.add([photo, file('a.jpg', 30, 1)]);
    expect(queue.getSnapshot()).toHaveLength(2);
  });

  it('pauses when the connection goes and resumes from the server offset when it is back', async () => {
    const server = new FakeTusServer();
    const { queue } = setup(server, { chunkSize: 10 });
    let patches = 0;
    server.interceptor = (request) =>
      request.method === 'PATCH' && ++patches === 2 ? 'hold' : null;

    queue.add([file('a.jpg', 30)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    vi.stubGlobal('navigator', { onLine: false });
    queue.setOnline(false);
    expect(statuses(queue)).toEqual(['paused']);
    server.held[0]?.fail();

    vi.stubGlobal('navigator', { onLine: true });
    server.interceptor = null;
    queue.setOnline(true);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['done']));
    // Asked the server where it was, then sent only the missing bytes.
    const afterPause = server.requests.slice(3);
    expect(afterPause.map((r) => r.method)).toEqual(['HEAD', 'PATCH', 'PATCH']);
    expect(afterPause[1]?.headers['Upload-Offset']).toBe('10');
    expect(count(server, 'POST')).toBe(1);
  });

  it('lists an interrupted upload after a reload and resumes it when the same file is chosen', async () => {
    const server = new FakeTusServer();
    const first = setup(server, { chunkSize: 10 });
    let patches = 0;
    server.interceptor = (request) =>
      request.method === 'PATCH' && ++patches === 2 ? 'hold' : null;
    first.queue.add([file('concert.jpg', 30)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    first.queue.stop();
    server.interceptor = null;

    // The page is loaded again: a new queue, the File gone, the URL storage still there.
    const second = setup(server, { chunkSize: 10 });
    const interrupted = await findInterruptedUploads(
      defaultOptions.urlStorage,
      SCOPE,
      second.queue.busyFingerprints(),
    );
    expect(interrupted).toMatchObject([{ fileName: 'concert.jpg', size: 30 }]);
    // Another collection or another user does not see it.
    expect(
      await findInterruptedUploads(
        defaultOptions.urlStorage,
        uploadScope('user-1', 'c2'),
        new Set(),
      ),
    ).toEqual([]);

    const before = server.requests.length;
    second.queue.add([file('concert.jpg', 30)]);
    await vi.waitFor(() => expect(statuses(second.queue)).toEqual(['done']));
    expect(byName(second.queue, 'concert.jpg').resumed).toBe(true);
    const resumed = server.requests.slice(before);
    expect(resumed.map((r) => r.method)).toEqual(['HEAD', 'PATCH', 'PATCH']);
    expect(resumed[1]?.headers['Upload-Offset']).toBe('10');
    expect(await defaultOptions.urlStorage.findAllUploads()).toEqual([]);
  });

  it('continues an interrupted upload under the fingerprint it was matched to', async () => {
    const server = new FakeTusServer();
    const first = setup(server, { chunkSize: 10 });
    let patches = 0;
    server.interceptor = (request) =>
      request.method === 'PATCH' && ++patches === 2 ? 'hold' : null;
    first.queue.add([file('concert.jpg', 30)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    first.queue.stop();
    server.interceptor = null;

    // After a reload the browser reports no type for the same file: another fingerprint.
    const second = setup(server, { chunkSize: 10 });
    const [stored] = await findInterruptedUploads(defaultOptions.urlStorage, SCOPE, new Set());
    const again = new File([new Uint8Array(30).fill(7)], 'concert.jpg', {
      lastModified: 1_700_000_000_000,
    });
    second.queue.add([again], new Map([[again, stored?.fingerprint ?? '']]));
    await vi.waitFor(() => expect(statuses(second.queue)).toEqual(['done']));
    expect(byName(second.queue, 'concert.jpg').resumed).toBe(true);
    expect(count(server, 'POST')).toBe(1);
    expect(await defaultOptions.urlStorage.findAllUploads()).toEqual([]);
  });

  it('stops at a refusal that no retry changes and shows its error code', async () => {
    const server = new FakeTusServer();
    server.interceptor = (request) =>
      request.method === 'POST'
        ? {
            status: 413,
            body: JSON.stringify({
              statusCode: 413,
              errorCode: 'quotaExceededStorage',
              message: 'x',
            }),
          }
        : null;
    const { queue } = setup(server);
    queue.add([file('big.mov', 30)]);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['failed']));
    expect(byName(queue, 'big.mov').failure).toEqual({
      errorCode: 'quotaExceededStorage',
      statusCode: 413,
      retryable: false,
    });
    expect(count(server, 'POST')).toBe(1);
  });

  it('retries network failures by itself, then lets the user retry', async () => {
    const server = new FakeTusServer();
    server.interceptor = (request) => (request.method === 'PATCH' ? 'network-error' : null);
    const { queue, uploaded } = setup(server);
    queue.add([file('a.jpg', 30)]);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['failed']));
    // The first attempt and the two of retryDelays.
    expect(count(server, 'PATCH')).toBe(3);
    expect(byName(queue, 'a.jpg').failure).toMatchObject({
      errorCode: 'noConnection',
      retryable: true,
    });

    server.interceptor = null;
    queue.retry(byName(queue, 'a.jpg').id);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['done']));
    expect(uploaded).toHaveLength(1);
    expect(count(server, 'POST')).toBe(1);
  });

  it('cancels a file: the upload is deleted on the server and leaves the list', async () => {
    const server = new FakeTusServer();
    const onStorageChange = vi.fn();
    const { queue } = setup(server, { chunkSize: 10, onStorageChange });
    server.interceptor = (request) =>
      request.method === 'PATCH' && request.headers['Upload-Offset'] === '10' ? 'hold' : null;
    queue.add([file('a.jpg', 30), file('b.jpg', 5)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    await vi.waitFor(() => expect(byName(queue, 'b.jpg').status).toBe('done'));

    await queue.cancel(byName(queue, 'a.jpg').id);
    expect(queue.getSnapshot().map((entry) => entry.name)).toEqual(['b.jpg']);
    expect(count(server, 'DELETE')).toBe(1);
    expect(server.uploads.size).toBe(1);
    expect(await defaultOptions.urlStorage.findAllUploads()).toEqual([]);
    expect(onStorageChange).toHaveBeenCalled();
  });

  it('answers an expired upload by starting it again', async () => {
    const server = new FakeTusServer();
    const first = setup(server, { chunkSize: 10 });
    server.interceptor = (request) => (request.method === 'PATCH' ? 'hold' : null);
    first.queue.add([file('a.jpg', 30)]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));
    first.queue.stop();
    server.uploads.clear();
    server.interceptor = null;

    const second = setup(server, { chunkSize: 10 });
    second.queue.add([file('a.jpg', 30)]);
    await vi.waitFor(() => expect(statuses(second.queue)).toEqual(['done']));
    expect(count(server, 'POST')).toBe(2);
  });

  it('skips a file the collection holds already, and uploads it anyway when asked', async () => {
    const server = new FakeTusServer();
    const digests: Record<string, string> = { 'a.jpg': 'a'.repeat(64), 'b.jpg': 'b'.repeat(64) };
    const checkDuplicate = vi.fn((f: File) =>
      Promise.resolve({
        sha256: digests[f.name] ?? '',
        match: f.name === 'a.jpg' ? { fileId: 'file-a', name: 'a.jpg' } : null,
      }),
    );
    const { queue, uploaded } = setup(server, { checkDuplicate });

    queue.add([file('a.jpg', 30), file('b.jpg', 40, 2)]);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['duplicate', 'done']));
    expect(byName(queue, 'a.jpg').duplicateOf).toEqual({ fileId: 'file-a', name: 'a.jpg' });
    expect(count(server, 'POST')).toBe(1);
    // The digest goes with the upload, for the server to check.
    expect(server.requests.find((r) => r.method === 'POST')?.headers['Upload-Metadata']).toBe(
      `filename ${btoa('b.jpg')},filetype ${btoa('image/jpeg')},sha256 ${btoa(digests['b.jpg'] ?? '')}`,
    );
    // Still listed: the same file chosen again is not queued twice.
    queue.add([file('a.jpg', 30)]);
    expect(queue.getSnapshot()).toHaveLength(2);

    queue.uploadAnyway(byName(queue, 'a.jpg').id);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['done', 'done']));
    expect(uploaded).toHaveLength(2);
    // Hashed once: the forced upload keeps its digest.
    expect(checkDuplicate).toHaveBeenCalledTimes(2);
    const creations = server.requests.filter((r) => r.method === 'POST');
    expect(creations[1]?.headers['Upload-Metadata']).toContain(`sha256 ${btoa('a'.repeat(64))}`);
  });

  it('uploads unchecked when the check fails, and holds a slot while hashing', async () => {
    const server = new FakeTusServer();
    let release: () => void = () => undefined;
    const hashing = new Promise<void>((resolve) => (release = resolve));
    const checkDuplicate = vi.fn(async (f: File) => {
      await hashing;
      if (f.name === 'a.jpg') throw new Error('no worker');
      return { sha256: 'c'.repeat(64), match: null };
    });
    const { queue } = setup(server, { checkDuplicate, parallel: 2 });
    queue.add([file('a.jpg', 30), file('b.jpg', 40, 2), file('c.jpg', 50, 3)]);
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['hashing', 'hashing', 'queued']));
    expect(count(server, 'POST')).toBe(0);
    release();
    await vi.waitFor(() => expect(statuses(queue)).toEqual(['done', 'done', 'done']));
    const metadata = server.requests
      .filter((r) => r.method === 'POST')
      .map((r) => r.headers['Upload-Metadata'] ?? '');
    expect(metadata.filter((m) => m.includes('sha256'))).toHaveLength(2);
    expect(metadata.find((m) => m.startsWith(`filename ${btoa('a.jpg')}`))).not.toContain('sha256');
  });
});
