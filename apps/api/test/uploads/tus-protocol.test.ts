import { Agent, request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { errorBodySchema } from '@raccolta/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readAll } from '../../src/storage/testing/helpers.js';
import { nextAddress } from '../files/files-api.js';
import { buildFilesWorld, sha256, type FilesWorld } from '../files/files-world.js';
import { makePng } from '../files/images.js';
import { accessToken } from '../members/world.js';
import { checksumHeader, tusClient } from './tus-client.js';
import { STORAGE_KINDS, startUploadServer, type UploadServer } from './tus-world.js';

const MAX_FILE = 256 * 1024;
const TEAM_MAX = 4 * MAX_FILE;
const HOUR = 60 * 60_000;
const OCTETS = 'application/offset+octet-stream';

/** Every error answer of the tus endpoints: our body, as JSON (HEAD answers have no body). */
function expectErrorAnswer(res: LightMyRequestResponse, status: number, errorCode: string) {
  const what = `${res.raw.req.method} ${res.raw.req.url} → ${res.statusCode} ${res.body}`;
  expect(res.statusCode, what).toBe(status);
  expect(String(res.headers['content-type']), what).toMatch(/^application\/json(;|$)/);
  if (res.raw.req.method === 'HEAD') return;
  const body = errorBodySchema.strict().parse(res.json());
  expect(body, what).toMatchObject({ statusCode: status, errorCode });
  expect(body.message, what).not.toBe('');
}

interface RawAnswer {
  status: number;
  type: string;
  body: string;
  /** Whether it went over a connection an earlier request used. */
  reused: boolean;
}

/** A tus request over a real socket, its body sent in the given chunks (chunked, unless sized). */
function rawRequest(
  url: string,
  headers: Record<string, string>,
  method: string,
  chunks: (string | Buffer)[],
  agent?: Agent,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      agent,
      method,
      headers: { 'tus-resumable': '1.0.0', ...headers },
    });
    req.on('response', (res) => {
      const body: Buffer[] = [];
      res.on('data', (chunk: Buffer) => body.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body: Buffer.concat(body).toString(),
          reused: req.reusedSocket,
        }),
      );
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe.each(STORAGE_KINDS)('tus as its clients expect, on %s storage', (kind) => {
  let server: UploadServer;
  let world: FilesWorld;
  let origin: string;
  let base: string;
  // The app's clock (tokens, rows); tus reads Date itself.
  const now = Date.now();

  beforeAll(async () => {
    server = await startUploadServer(
      kind,
      {
        UPLOAD_MAX_FILE_BYTES: String(MAX_FILE),
        UPLOAD_TEAM_MAX_BYTES: String(TEAM_MAX),
        UPLOAD_ALLOWED_TYPES: 'image/*,text/plain',
        UPLOAD_EXPIRY_HOURS: '1',
      },
      { clock: () => now },
    );
    world = await buildFilesWorld(server.ctx, { objects: false });
    origin = server.config.webOrigins[0] ?? '';
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  const own = () => world.collections.uploaders;
  const creationUrl = () => `/api/teams/${own().team_id}/collections/${own().id}/uploads`;
  const idOf = (url: string) => url.split('/').pop() ?? '';
  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  const uploadRow = (id: string) =>
    server.ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  const bearer = async () => ({
    authorization: `Bearer ${await accessToken(server.ctx, world.users.uploader)}`,
  });
  const inject = async (
    method: 'OPTIONS' | 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: Buffer | string,
  ) =>
    server.app.inject({
      method,
      url,
      headers,
      remoteAddress: nextAddress(),
      ...(payload === undefined ? {} : { payload }),
    });

  describe('OPTIONS', () => {
    it('answers the tus discovery when it is not a CORS preflight, with no token', async () => {
      const tus = await tusClient(server, world.users.uploader);
      const created = await tus.create(own().team_id, own().id, { length: 10, filename: 'a.txt' });
      for (const url of [creationUrl(), String(created.headers.location)]) {
        for (const headers of [{}, { 'tus-resumable': '1.0.0' }, { origin }] as Record<
          string,
          string
        >[]) {
          const res = await inject('OPTIONS', url, headers);
          expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(204);
          expect(res.headers).toMatchObject({
            'tus-resumable': '1.0.0',
            'tus-version': '1.0.0',
            'tus-max-size': String(MAX_FILE),
            'tus-checksum-algorithm': 'sha1,sha256,md5',
          });
          const extensions = String(res.headers['tus-extension']).split(',');
          expect(extensions.sort()).toEqual(
            ['checksum', 'creation', 'creation-with-upload', 'expiration', 'termination'].sort(),
          );
          expect(res.body).toBe('');
        }
      }
    });

    it('still answers a CORS preflight as one, without tus headers', async () => {
      for (const url of [creationUrl(), `${creationUrl()}/${randomBytes(4).toString('hex')}`]) {
        const res = await inject('OPTIONS', url, {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,tus-resumable,x-http-method-override',
        });
        expect(res.statusCode).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(String(res.headers['access-control-allow-methods'])).toContain('PATCH');
        const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
        for (const header of ['authorization', 'tus-resumable', 'upload-offset']) {
          expect(allowed).toContain(header);
        }
        // tus-js-client's overridePatchMethod from another origin.
        expect(allowed).toContain('x-http-method-override');
        expect(res.headers['access-control-max-age']).toBe('600');
        expect(res.headers['content-length']).toBe('0');
        expect(res.headers['tus-version']).toBeUndefined();
      }
      // A preflight of any other API path is as it was.
      const other = await inject('OPTIONS', '/api/teams', {
        origin,
        'access-control-request-method': 'GET',
      });
      expect(other.statusCode).toBe(204);
      expect(other.headers['access-control-allow-origin']).toBe(origin);
    });
  });

  describe('X-HTTP-Method-Override', () => {
    it('is honoured on a POST to an upload URL, with the same token and checks', async () => {
      const auth = await bearer();
      const data = Buffer.from('sent through a proxy that blocks PATCH\n');
      const created = await (
        await tusClient(server, world.users.uploader)
      ).create(own().team_id, own().id, { length: data.length, filename: 'proxy.txt' });
      const url = String(created.headers.location);
      const as = (method: string, headers: Record<string, string> = {}, body?: Buffer) =>
        inject(
          'POST',
          url,
          {
            ...auth,
            'tus-resumable': '1.0.0',
            'x-http-method-override': method,
            ...headers,
          },
          body,
        );

      const first = await as(
        'PATCH',
        { 'upload-offset': '0', 'content-type': OCTETS },
        data.subarray(0, 10),
      );
      expect(first.statusCode, first.body).toBe(204);
      expect(first.headers['upload-offset']).toBe('10');
      const head = await as('HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.headers).toMatchObject({
        'upload-offset': '10',
        'upload-length': String(data.length),
      });

      // tus 1.0: once a method is named, the one sent is ignored.
      const named = await inject('PATCH', url, {
        ...auth,
        'tus-resumable': '1.0.0',
        'x-http-method-override': 'HEAD',
      });
      expect(named.statusCode).toBe(200);
      expect(named.headers['upload-offset']).toBe('10');

      // The checks of the method it stands for.
      expectErrorAnswer(
        await as('PATCH', { 'upload-offset': '0', 'content-type': OCTETS }, data),
        409,
        'uploadOffsetMismatch',
      );
      expectErrorAnswer(
        await as(
          'PATCH',
          { 'upload-offset': '10', 'content-type': 'application/octet-stream' },
          data.subarray(10),
        ),
        415,
        'invalidRequest',
      );
      expectErrorAnswer(await as('PUT'), 400, 'invalidRequest');
      const anonymous = await inject('POST', url, {
        'tus-resumable': '1.0.0',
        'x-http-method-override': 'HEAD',
      });
      expectErrorAnswer(anonymous, 401, 'authorizationRequired');
      const admin = await inject('POST', url, {
        authorization: `Bearer ${await accessToken(server.ctx, world.users.admin)}`,
        'tus-resumable': '1.0.0',
        'x-http-method-override': 'DELETE',
      });
      expectErrorAnswer(admin, 404, 'notFound');
      // A POST that names no method is no tus request.
      expectErrorAnswer(
        await inject('POST', url, { ...auth, 'tus-resumable': '1.0.0' }),
        404,
        'notFound',
      );
      // Nor does a creation request become another method.
      expectErrorAnswer(
        await inject('POST', creationUrl(), {
          ...auth,
          'tus-resumable': '1.0.0',
          'upload-length': '5',
          'x-http-method-override': 'PATCH',
        }),
        400,
        'invalidRequest',
      );

      const last = await as(
        'PATCH',
        { 'upload-offset': '10', 'content-type': OCTETS },
        data.subarray(10),
      );
      expect(last.statusCode, last.body).toBe(204);
      expect(await fileRow(idOf(url))).toMatchObject({ name: 'proxy.txt', sha256: sha256(data) });

      // DELETE through a POST: an upload in progress goes, as with DELETE itself.
      const other = await (
        await tusClient(server, world.users.uploader)
      ).create(own().team_id, own().id, { length: 100, filename: 'gone.txt' });
      const otherUrl = String(other.headers.location);
      const gone = await inject('POST', otherUrl, {
        ...auth,
        'tus-resumable': '1.0.0',
        'x-http-method-override': 'DELETE',
      });
      expect(gone.statusCode, gone.body).toBe(204);
      expect(await uploadRow(idOf(otherUrl))).toBeUndefined();
    });

    it("uploads a file with tus-js-client's overridePatchMethod", async () => {
      const data = await makePng(200, 150);
      const seen: string[] = [];
      const headers = await bearer();
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new Upload(data, {
          endpoint: `${base}${creationUrl()}`,
          headers,
          metadata: { filename: 'through-post.png' },
          chunkSize: Math.ceil(data.length / 3),
          overridePatchMethod: true,
          retryDelays: [],
          onBeforeRequest: (req) => {
            seen.push(`${req.getMethod()} ${req.getHeader('X-HTTP-Method-Override') ?? ''}`.trim());
          },
          onError: reject,
          onSuccess: () => resolve(upload.url ?? ''),
        });
        upload.start();
      });
      expect(seen).toEqual(['POST', 'POST PATCH', 'POST PATCH', 'POST PATCH']);
      const file = await fileRow(idOf(url));
      expect(file).toMatchObject({
        name: 'through-post.png',
        content_type: 'image/png',
        size: data.length,
        sha256: sha256(data),
      });
      expect(await readAll(await server.ctx.storage.get(file?.storage_key ?? ''))).toEqual(data);
      expect((await server.tusLeftovers()).filter((name) => name.includes(idOf(url)))).toEqual([]);
    });
  });

  describe('protocol errors', () => {
    it('answers an unsupported or missing Tus-Resumable 412 with Tus-Version, and does nothing', async () => {
      const tus = await tusClient(server, world.users.uploader);
      const auth = await bearer();
      const created = await tus.create(own().team_id, own().id, { length: 10, filename: 'v.txt' });
      const url = String(created.headers.location);
      const done = await tus.upload(own().team_id, own().id, Buffer.from('complete\n'), {
        filename: 'done.txt',
      });
      const requests: [string, 'POST' | 'HEAD' | 'PATCH' | 'DELETE', Record<string, string>][] = [
        [creationUrl(), 'POST', { 'upload-length': '10' }],
        [url, 'HEAD', {}],
        [url, 'PATCH', { 'upload-offset': '0', 'content-type': OCTETS }],
        [url, 'DELETE', {}],
        [done.url, 'PATCH', { 'upload-offset': '9', 'content-type': OCTETS }],
        [done.url, 'HEAD', {}],
      ];
      const before = await server.ctx.db.selectFrom('uploads').selectAll().execute();
      for (const version of ['0.2.2', undefined]) {
        for (const [target, method, headers] of requests) {
          const res = await inject(
            method,
            target,
            { ...auth, ...headers, ...(version ? { 'tus-resumable': version } : {}) },
            method === 'PATCH' ? Buffer.from('0123456789') : undefined,
          );
          expectErrorAnswer(res, 412, 'invalidRequest');
          expect(res.headers['tus-version']).toBe('1.0.0');
        }
      }
      expect(await server.ctx.db.selectFrom('uploads').selectAll().execute()).toEqual(before);
      expect((await tus.head(url)).headers['upload-offset']).toBe('0');
    });

    it('answers a PATCH that is not application/offset+octet-stream 415, and stores nothing', async () => {
      const tus = await tusClient(server, world.users.uploader);
      const created = await tus.create(own().team_id, own().id, { length: 10, filename: 'c.txt' });
      const url = String(created.headers.location);
      for (const type of ['application/octet-stream', 'application/json', 'text/plain', null]) {
        const headers: Record<string, string> = type === null ? {} : { 'content-type': type };
        const body =
          type === 'application/json' ? Buffer.from('{"a":1}') : Buffer.from('0123456789');
        const res = await inject(
          'PATCH',
          url,
          { ...(await bearer()), 'tus-resumable': '1.0.0', 'upload-offset': '0', ...headers },
          body,
        );
        expectErrorAnswer(res, 415, 'invalidRequest');
      }
      expect((await tus.head(url)).headers['upload-offset']).toBe('0');
    });
  });

  it('answers every error of the tus endpoints with our JSON error body', async () => {
    const tus = await tusClient(server, world.users.uploader);
    const auth = await bearer();
    const team = own().team_id;
    const create = (headers: Record<string, string>, user = auth) =>
      inject('POST', creationUrl(), { ...user, 'tus-resumable': '1.0.0', ...headers });

    // Before tus: the token, the collection, the declared size.
    expectErrorAnswer(
      await inject('POST', creationUrl(), { 'tus-resumable': '1.0.0', 'upload-length': '1' }),
      401,
      'authorizationRequired',
    );
    expectErrorAnswer(
      await create({ 'upload-length': '1' }, { authorization: 'Bearer nope' }),
      401,
      'invalidAuthorization',
    );
    const viewer = { authorization: `Bearer ${await accessToken(server.ctx, world.users.viewer)}` };
    expectErrorAnswer(await create({ 'upload-length': '1' }, viewer), 403, 'forbidden');
    expectErrorAnswer(
      await inject(
        'POST',
        `/api/teams/${team}/collections/${world.collections.foreign.id}/uploads`,
        {
          ...auth,
          'tus-resumable': '1.0.0',
          'upload-length': '1',
        },
      ),
      404,
      'notFound',
    );
    expectErrorAnswer(
      await inject('POST', `/api/teams/${team}/collections/nope/uploads`, {
        ...auth,
        'tus-resumable': '1.0.0',
        'upload-length': '1',
      }),
      400,
      'invalidInput',
    );
    expectErrorAnswer(await create({}), 400, 'invalidInput');
    expectErrorAnswer(await create({ 'upload-length': 'ten' }), 400, 'invalidInput');
    expectErrorAnswer(await create({ 'upload-defer-length': '1' }), 400, 'invalidInput');
    expectErrorAnswer(await create({ 'upload-length': String(MAX_FILE + 1) }), 413, 'fileTooLarge');
    // Inside tus: headers it checks itself, an extension we do not offer.
    expectErrorAnswer(
      await create({ 'upload-length': '1', 'upload-metadata': 'filename not-base64!' }),
      400,
      'invalidInput',
    );
    expectErrorAnswer(
      await create({ 'upload-length': '1', 'upload-concat': 'partial' }),
      400,
      'invalidRequest',
    );
    // The team's room: uploads in progress count.
    const reserved: string[] = [];
    let full: LightMyRequestResponse | undefined;
    for (let i = 0; i <= TEAM_MAX / MAX_FILE && !full; i++) {
      const res = await create({ 'upload-length': String(MAX_FILE) });
      if (res.statusCode === 201) reserved.push(String(res.headers.location));
      else full = res;
    }
    expect(full).toBeDefined();
    if (full) expectErrorAnswer(full, 413, 'quotaExceededStorage');
    for (const url of reserved) expect((await tus.delete(url)).statusCode).toBe(204);

    // An upload in progress.
    const data = Buffer.from('0123456789');
    const created = await tus.create(team, own().id, { length: data.length, filename: 'd.txt' });
    const url = String(created.headers.location);
    const unknown = `${creationUrl()}/${crypto.randomUUID()}`;
    expectErrorAnswer(await tus.head(unknown), 404, 'notFound');
    expectErrorAnswer(await tus.patch(unknown, 0, data), 404, 'notFound');
    expectErrorAnswer(await tus.delete(unknown), 404, 'notFound');
    expectErrorAnswer(await tus.head(`${creationUrl()}/not-an-id`), 404, 'notFound');
    const admin = await tusClient(server, world.users.admin);
    expectErrorAnswer(await admin.head(url), 404, 'notFound');
    expectErrorAnswer(await admin.patch(url, 0, data), 404, 'notFound');
    expectErrorAnswer(
      await inject(
        'PATCH',
        url,
        { ...auth, 'tus-resumable': '1.0.0', 'content-type': OCTETS },
        data,
      ),
      400,
      'invalidInput',
    );
    expectErrorAnswer(
      await tus.patch(url, 0, data, { 'upload-offset': 'zero' }),
      400,
      'invalidInput',
    );
    expectErrorAnswer(await tus.patch(url, 3, data.subarray(3)), 409, 'uploadOffsetMismatch');
    expectErrorAnswer(await tus.patch(url, 0, Buffer.concat([data, data])), 413, 'fileTooLarge');
    expectErrorAnswer(
      await tus.patch(url, 0, data, { 'upload-checksum': 'crc32 AAAA' }),
      400,
      'invalidInput',
    );
    expectErrorAnswer(
      await tus.patch(url, 0, data, {
        'upload-checksum': checksumHeader('sha1', Buffer.from('x')),
      }),
      460,
      'checksumMismatch',
    );
    expect((await tus.head(url)).headers['upload-offset']).toBe('0');

    // Past its expiry, as tus sees it: tus reads the time itself. On local disk only, since the
    // S3 client signs with the same clock and the store would refuse it long before.
    if (kind === 'local') {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + HOUR + 60_000 });
      try {
        expectErrorAnswer(await tus.patch(url, 0, data), 410, 'uploadExpired');
      } finally {
        vi.useRealTimers();
      }
    }

    // At the last byte: a type that is not allowed.
    const binary = randomBytes(64);
    const refused = await tus.create(team, own().id, { length: binary.length, filename: 'x.bin' });
    expectErrorAnswer(
      await tus.patch(String(refused.headers.location), 0, binary),
      415,
      'fileTypeNotAllowed',
    );

    // A file now: what tus no longer does for it.
    const done = await tus.upload(team, own().id, Buffer.from('complete\n'), { filename: 'e.txt' });
    expectErrorAnswer(await tus.delete(done.url), 400, 'invalidInput');
    expectErrorAnswer(await tus.patch(done.url, 2, Buffer.from('x')), 409, 'uploadOffsetMismatch');
  });

  describe('a PATCH past the declared length of a finished upload', () => {
    it('is refused 413 as well while the upload is in progress, sent chunked', async () => {
      const tus = await tusClient(server, world.users.uploader);
      const created = await tus.create(own().team_id, own().id, { length: 10, filename: 'p.txt' });
      const url = String(created.headers.location);
      const res = await rawRequest(
        `${base}${url}`,
        {
          ...(await bearer()),
          'upload-offset': '0',
          'content-type': OCTETS,
          'transfer-encoding': 'chunked',
        },
        'PATCH',
        ['01234', '56789', 'past the end'],
      );
      expect(res.status, res.body).toBe(413);
      expect(res.type).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toMatchObject({ statusCode: 413, errorCode: 'fileTooLarge' });
    });

    it('is refused 413 and changes nothing, with Content-Length or chunked', async () => {
      const tus = await tusClient(server, world.users.uploader);
      const auth = await bearer();
      const data = Buffer.from('exactly this, nothing more\n');
      const { url, last } = await tus.upload(own().team_id, own().id, data, {
        filename: 'exact.txt',
      });
      expect(last.statusCode).toBe(204);
      const before = await fileRow(idOf(url));
      const stored = async () =>
        readAll(await server.ctx.storage.get((await fileRow(idOf(url)))?.storage_key ?? ''));

      expectErrorAnswer(
        await tus.patch(url, data.length, Buffer.from('more bytes')),
        413,
        'fileTooLarge',
      );
      // Chunked, no Content-Length: the first byte is enough to know. The connection stays
      // usable: the next request on it is answered.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const send = (method: string, headers: Record<string, string>, chunks: string[]) =>
        rawRequest(`${base}${url}`, { ...auth, ...headers }, method, chunks, agent);
      try {
        const chunked = await send(
          'PATCH',
          {
            'upload-offset': String(data.length),
            'content-type': OCTETS,
            'transfer-encoding': 'chunked',
          },
          ['more', ' bytes', randomBytes(100_000).toString('hex')],
        );
        expect(chunked.status).toBe(413);
        expect(chunked.type).toMatch(/^application\/json/);
        expect(JSON.parse(chunked.body)).toMatchObject({ errorCode: 'fileTooLarge' });
        const next = await send('HEAD', {}, []);
        expect(next).toMatchObject({ status: 200, reused: true });
      } finally {
        agent.destroy();
      }

      expect(await fileRow(idOf(url))).toEqual(before);
      expect(await stored()).toEqual(data);
      const head = await tus.head(url);
      expect(head.headers['upload-offset']).toBe(String(data.length));
      // The last request retried with nothing past the end: still fine.
      expect((await tus.patch(url, data.length, Buffer.alloc(0))).statusCode).toBe(204);
      expect(await fileRow(idOf(url))).toEqual(before);
    });
  });
});
