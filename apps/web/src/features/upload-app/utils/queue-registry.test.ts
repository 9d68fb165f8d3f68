import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeTusServer } from '../test/fake-tus-server';
import { followPageLifecycle, QueueRegistry } from './queue-registry';
import { TusUploadQueue } from './tus-queue';
import { uploadScope } from './upload-storage';

const ENDPOINT = 'http://localhost/api/teams/t1/collections/c1/uploads';

describe('followPageLifecycle', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('stops uploads when the page is hidden and continues them by itself when it comes back from the back/forward cache', async () => {
    const server = new FakeTusServer();
    const registry = new QueueRegistry();
    const unfollow = followPageLifecycle(registry);
    const queue = registry.queue(
      'key',
      (online) =>
        new TusUploadQueue({
          endpoint: ENDPOINT,
          scope: uploadScope('user-1', 'c1'),
          online,
          authorization: () => Promise.resolve('Bearer t'),
          onUploaded: () => undefined,
          httpStack: server,
          retryDelays: [0],
          chunkSize: 10,
        }),
    );
    let patches = 0;
    server.interceptor = (request) =>
      request.method === 'PATCH' && ++patches === 2 ? 'hold' : null;
    queue.add([new File([new Uint8Array(30)], 'a.jpg', { lastModified: 1 })]);
    await vi.waitFor(() => expect(server.held).toHaveLength(1));

    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    expect(queue.getSnapshot().map((entry) => entry.status)).toEqual(['paused']);
    server.held[0]?.fail();
    server.interceptor = null;

    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await vi.waitFor(() =>
      expect(queue.getSnapshot().map((entry) => entry.status)).toEqual(['done']),
    );
    // The same upload, from the server's offset: no file to choose again, no second upload.
    const methods = server.requests.map((request) => request.method);
    expect(methods.filter((method) => method === 'POST')).toHaveLength(1);
    expect(methods.slice(3)).toEqual(['HEAD', 'PATCH', 'PATCH']);
    expect(server.requests[4]?.headers['Upload-Offset']).toBe('10');

    unfollow();
    registry.stopAll();
  });
});
