import type { Download } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDownloadJob } from '../../src/downloads/build-download.job.js';
import type { JobRun } from '../../src/jobs/types.js';
import { nextAddress } from '../files/files-api.js';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken, CALLERS, type Caller } from '../members/world.js';

type Endpoint = {
  name: string;
  method: 'GET' | 'POST';
  /** The path and body; `download` is a ready download the viewer requested. */
  request: (world: FilesWorld, download: string) => { url: string; payload?: object };
  expected: (caller: Caller) => number;
};

const notFoundOutside = (caller: Caller): number | undefined => {
  if (caller === 'anonymous') return 401;
  if (caller === 'disabled' || caller === 'outsider' || caller === 'foreigner') return 404;
  return undefined;
};

/** Reading a download: its requester only (the viewer here); anyone else's is 404. */
const requesterOnly = (caller: Caller) =>
  notFoundOutside(caller) ?? (caller === 'viewer' ? 200 : 404);

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST downloads (collaborative collection)',
    method: 'POST',
    request: (w) => ({
      url: `/teams/${w.team.id}/downloads`,
      payload: { collectionId: w.collections.shared.id },
    }),
    expected: (c) => notFoundOutside(c) ?? (c === 'uploader' ? 403 : 202),
  },
  {
    name: "POST downloads (the owner's owned collection)",
    method: 'POST',
    request: (w) => ({
      url: `/teams/${w.team.id}/downloads`,
      payload: { collectionId: w.collections.owned.id },
    }),
    // An uploader does not see someone else's owned collection at all.
    expected: (c) => notFoundOutside(c) ?? (c === 'uploader' ? 404 : 202),
  },
  {
    name: "POST downloads (another team's collection)",
    method: 'POST',
    request: (w) => ({
      url: `/teams/${w.team.id}/downloads`,
      payload: { collectionId: w.collections.foreign.id },
    }),
    expected: (c) => notFoundOutside(c) ?? 404,
  },
  {
    name: 'GET a download',
    method: 'GET',
    request: (w, d) => ({ url: `/teams/${w.team.id}/downloads/${d}` }),
    expected: requesterOnly,
  },
  {
    name: 'GET a part',
    method: 'GET',
    request: (w, d) => ({ url: `/teams/${w.team.id}/downloads/${d}/parts/1` }),
    expected: requesterOnly,
  },
  {
    name: "GET a download's link",
    method: 'GET',
    request: (w, d) => ({ url: `/teams/${w.team.id}/downloads/${d}/download` }),
    expected: requesterOnly,
  },
  {
    name: "GET a part's link",
    method: 'GET',
    request: (w, d) => ({ url: `/teams/${w.team.id}/downloads/${d}/parts/1/download` }),
    expected: requesterOnly,
  },
  {
    name: 'GET a download through the other team',
    method: 'GET',
    request: (w, d) => ({ url: `/teams/${w.otherTeam.id}/downloads/${d}` }),
    expected: (c) => notFoundOutside(c) ?? 404,
  },
  {
    name: 'GET a link through the other team',
    method: 'GET',
    request: (w, d) => ({ url: `/teams/${w.otherTeam.id}/downloads/${d}/download` }),
    expected: (c) => notFoundOutside(c) ?? 404,
  },
];

const run: JobRun = {
  id: 'matrix',
  queue: buildDownloadJob.queue,
  attempt: 1,
  maxAttempts: 5,
  createdAt: 0,
  signal: new AbortController().signal,
};

describe('downloads: authorisation matrix', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  const snapshot = async () =>
    JSON.stringify(
      await Promise.all([
        server.ctx.db.selectFrom('downloads').selectAll().orderBy('id').execute(),
        server.ctx.db.selectFrom('download_parts').selectAll().orderBy('download_id').execute(),
        server.ctx.db.selectFrom('jobs').select(['id', 'queue']).orderBy('id').execute(),
      ]),
    );

  for (const endpoint of ENDPOINTS) {
    for (const caller of CALLERS) {
      it(`${endpoint.name} as ${caller}`, async () => {
        const world = await buildFilesWorld(server.ctx);
        const viewer = `Bearer ${await accessToken(server.ctx, world.users.viewer)}`;
        const created = await server.app.inject({
          method: 'POST',
          url: `/api/teams/${world.team.id}/downloads`,
          headers: { authorization: viewer },
          payload: { collectionId: world.collections.shared.id },
          remoteAddress: nextAddress(),
        });
        const download = created.json<Download>().requestId;
        await buildDownloadJob.prepare({ downloadId: download })(server.ctx, run);

        const { url, payload } = endpoint.request(world, download);
        const before = await snapshot();
        const res = await server.app.inject({
          method: endpoint.method,
          url: `/api${url}`,
          headers:
            caller === 'anonymous'
              ? {}
              : { authorization: `Bearer ${await accessToken(server.ctx, world.users[caller])}` },
          remoteAddress: nextAddress(),
          ...(payload ? { payload } : {}),
        });
        const status = endpoint.expected(caller);
        expect(res.statusCode, res.body).toBe(status);
        const after = await snapshot();
        // The viewer asked for this very selection above and it is ready, its files unchanged:
        // the same archive answers, and nothing is built again.
        const reuses =
          caller === 'viewer' && endpoint.name === 'POST downloads (collaborative collection)';
        if (reuses) expect(res.json<Download>().requestId).toBe(download);
        if (endpoint.method === 'POST' && status === 202 && !reuses) {
          expect(after).not.toBe(before);
        } else expect(after).toBe(before);
      });
    }
  }
});
