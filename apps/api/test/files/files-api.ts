import type { FileItem, FileListResponse } from '@raccolta/contracts';
import type { LightMyRequestResponse } from 'fastify';
import type { UserRow } from '../../src/users/users.repository.js';
import type { TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { fileBody, multipartBody, type Part } from './multipart.js';

/** Calls of the files API as a given user, through app.inject. */
export interface FilesClient {
  headers: { authorization: string };
  upload(
    teamId: string,
    collectionId: string,
    file: { filename: string; data: Buffer | string; contentType?: string } | { parts: Part[] },
  ): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  list(url: string, query?: Record<string, string | number>): Promise<FileListResponse>;
  /** Every page of a list, following lastKey. */
  listAll(url: string, query?: Record<string, string | number>): Promise<FileItem[]>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

let address = 0;
/** A distinct client address per call, so the rate limit never decides a test. */
export function nextAddress(): string {
  address++;
  return `10.9.${(address >> 8) & 255}.${address & 255}`;
}

export async function filesClient(server: TestServer, user: UserRow): Promise<FilesClient> {
  const headers = { authorization: `Bearer ${await accessToken(server.ctx, user)}` };
  const inject = (opts: {
    method: 'GET' | 'POST' | 'DELETE';
    url: string;
    payload?: Buffer;
    contentType?: string;
  }) =>
    server.app.inject({
      method: opts.method,
      url: `/api${opts.url}`,
      headers: { ...headers, ...(opts.contentType ? { 'content-type': opts.contentType } : {}) },
      remoteAddress: nextAddress(),
      ...(opts.payload ? { payload: opts.payload } : {}),
    });
  const list = async (url: string, query: Record<string, string | number> = {}) => {
    const qs = new URLSearchParams(
      Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    );
    const search = qs.toString();
    const res = await inject({ method: 'GET', url: search ? `${url}?${search}` : url });
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
    return res.json<FileListResponse>();
  };
  return {
    headers,
    upload(teamId, collectionId, file) {
      const body =
        'parts' in file
          ? multipartBody(file.parts)
          : fileBody(file.filename, file.data, file.contentType);
      return inject({
        method: 'POST',
        url: `/teams/${teamId}/collections/${collectionId}/files`,
        payload: body.payload,
        contentType: body.contentType,
      });
    },
    get: (url) => inject({ method: 'GET', url }),
    list,
    async listAll(url, query = {}) {
      const all: FileItem[] = [];
      let lastKey: string | null = null;
      do {
        const page: FileListResponse = await list(url, {
          ...query,
          ...(lastKey ? { lastKey } : {}),
        });
        all.push(...page.files);
        lastKey = page.pagination.lastKey;
      } while (lastKey);
      return all;
    },
    delete: (url) => inject({ method: 'DELETE', url }),
  };
}

/** The path app.inject needs for an absolute link the API made (rendition or storage link). */
export function injectPath(url: string): string {
  return new URL(url).pathname;
}
