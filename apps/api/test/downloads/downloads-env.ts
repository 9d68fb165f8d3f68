import type { Download, DownloadLinkResponse } from '@raccolta/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sleep, waitUntil } from '../../src/jobs/test-utils.fixture.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { nextAddress } from '../files/files-api.js';
import type { TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';

export type Method = 'GET' | 'POST';

/** Calls of the downloads API as one user, and what a browser does with the links. */
export async function downloadsClient(server: TestServer, user: UserRow) {
  const authorization = `Bearer ${await accessToken(server.ctx, user)}`;
  const call = (method: Method, url: string, payload?: object): Promise<LightMyRequestResponse> =>
    server.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization },
      remoteAddress: nextAddress(),
      ...(payload ? { payload } : {}),
    });
  const base = (teamId: string) => `/teams/${teamId}/downloads`;
  return {
    call,
    async request(teamId: string, body: object): Promise<Download> {
      const res = await call('POST', base(teamId), body);
      if (res.statusCode !== 202) throw new Error(`POST downloads: ${res.statusCode} ${res.body}`);
      return res.json<Download>();
    },
    get: (teamId: string, id: string) => call('GET', `${base(teamId)}/${id}`),
    /** Polls as the web app does (faster) until the download leaves inProgress. */
    async settled(teamId: string, id: string, timeoutMs = 30_000): Promise<Download> {
      let last: Download | undefined;
      await waitUntil(
        async () => {
          await sleep(25);
          const res = await call('GET', `${base(teamId)}/${id}`);
          last = res.json<Download>();
          return last.status !== 'inProgress';
        },
        `download ${id} to settle`,
        timeoutMs,
      );
      if (!last) throw new Error('never answered');
      return last;
    },
    link: (teamId: string, id: string, part?: number, query = '') =>
      call(
        'GET',
        `${base(teamId)}/${id}${part === undefined ? '' : `/parts/${part}`}/download${query}`,
      ),
    /** Follows a signed link without any header, as the browser's download does. */
    async fetchLink(res: LightMyRequestResponse): Promise<LightMyRequestResponse> {
      if (res.statusCode !== 200) throw new Error(`link: ${res.statusCode} ${res.body}`);
      const url = new URL(res.json<DownloadLinkResponse>().url);
      return server.app.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        remoteAddress: nextAddress(),
      });
    },
  };
}

export type DownloadsClient = Awaited<ReturnType<typeof downloadsClient>>;

/** A temp folder for archives, removed by `remove`. */
export function archiveDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-zip-'));
  return {
    dir,
    async save(name: string, body: Buffer): Promise<string> {
      const file = path.join(dir, name);
      await writeFile(file, body);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
