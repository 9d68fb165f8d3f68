import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { UserRow } from '../../src/users/users.repository.js';
import { nextAddress } from '../files/files-api.js';
import type { TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';

export interface TusCreate {
  length?: number | string;
  filename?: string;
  sha256?: string;
  /** creation-with-upload: the first bytes in the POST itself. */
  body?: Buffer;
  headers?: Record<string, string>;
}

/** Raw tus 1.0 requests as a given user (or anonymous), through app.inject. */
export interface TusClient {
  create(teamRef: string, collectionId: string, opts: TusCreate): Promise<LightMyRequestResponse>;
  head(url: string): Promise<LightMyRequestResponse>;
  patch(
    url: string,
    offset: number,
    body: Buffer,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
  /** POST then one PATCH per chunk; answers the upload URL and the last response. */
  upload(
    teamRef: string,
    collectionId: string,
    data: Buffer,
    opts?: { filename?: string; chunk?: number },
  ): Promise<{ url: string; last: LightMyRequestResponse }>;
}

export function metadataHeader(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}

export function checksumHeader(algorithm: string, data: Buffer): string {
  return `${algorithm} ${createHash(algorithm).update(data).digest('base64')}`;
}

export async function tusClient(server: TestServer, user: UserRow | null): Promise<TusClient> {
  const auth: Record<string, string> = user
    ? { authorization: `Bearer ${await accessToken(server.ctx, user)}` }
    : {};
  const base = { ...auth, 'tus-resumable': '1.0.0' };
  const inject = (
    method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: Buffer,
  ) =>
    server.app.inject({
      method,
      url,
      headers: { ...base, ...headers },
      remoteAddress: nextAddress(),
      ...(payload ? { payload } : {}),
    });
  const client: TusClient = {
    create(teamRef, collectionId, opts) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.length !== undefined) headers['upload-length'] = String(opts.length);
      const meta: Record<string, string> = {};
      if (opts.filename !== undefined) meta.filename = opts.filename;
      if (opts.sha256 !== undefined) meta.sha256 = opts.sha256;
      if (Object.keys(meta).length) headers['upload-metadata'] = metadataHeader(meta);
      if (opts.body) headers['content-type'] = 'application/offset+octet-stream';
      return inject(
        'POST',
        `/api/teams/${teamRef}/collections/${collectionId}/uploads`,
        headers,
        opts.body,
      );
    },
    head: (url) => inject('HEAD', url, {}),
    patch: (url, offset, body, headers = {}) =>
      inject(
        'PATCH',
        url,
        {
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          ...headers,
        },
        body,
      ),
    delete: (url) => inject('DELETE', url, {}),
    async upload(teamRef, collectionId, data, opts = {}) {
      const created = await client.create(teamRef, collectionId, {
        length: data.length,
        filename: opts.filename ?? 'file.bin',
      });
      if (created.statusCode !== 201) {
        throw new Error(`create: ${created.statusCode} ${created.body}`);
      }
      const url = String(created.headers.location);
      const chunk = opts.chunk ?? data.length;
      let last = created;
      for (let offset = 0; offset < data.length || offset === 0; offset += chunk) {
        last = await client.patch(url, offset, data.subarray(offset, offset + chunk));
        if (last.statusCode !== 204) return { url, last };
        if (data.length === 0) break;
      }
      return { url, last };
    },
  };
  return client;
}
