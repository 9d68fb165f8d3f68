import { isErrorCode } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/auth/sessions.js';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { operationsOf, resolveSchema, type OpenApiPaths } from '../helpers/openapi-operations.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * Bad input of every kind at every operation of the OpenAPI document, sent by a team's owner (who
 * gets furthest into the code): nothing answers 5xx, and every refusal is the error body of the
 * spec with a known errorCode and the status of the answer. Operations and their parameters come
 * from the document, so a new route is covered as soon as it is documented.
 */

interface BodySchema {
  properties?: Record<string, unknown>;
}

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: BodySchema | { $ref: string } }> };
}

/** For path and query parameters. */
const BAD_TEXT = [
  '',
  ' ',
  'x',
  '-1',
  '0',
  '1.5',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '\u0000',
  '%00',
  '😀',
  "' or 1=1 --",
  '../../etc/passwd',
  '2026-13-45',
  '9'.repeat(40),
  'a'.repeat(5000),
];

/** For each property of a JSON body, one at a time. */
const BAD_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  true,
  '',
  ' ',
  '\u0000',
  '😀',
  'x'.repeat(100_000),
  [],
  [1, 'a'],
  {},
  { a: 1 },
];

/** Whole bodies that are not the JSON object any operation takes. */
const BAD_BODIES = ['', '{', '{"a":', 'null', '[]', '"x"', '1', '\u0000'];

describe('bad input at every operation', () => {
  let server: TestServer;
  let world: FilesWorld;
  let authorization: string;
  let doc: OpenApiPaths<Operation>;
  let operations: { method: string; path: string; op: Operation }[];

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '10000000' });
    world = await buildFilesWorld(server.ctx, { objects: false });
    const session = await startSession(server.ctx, world.users.owner, { identityProvider: false });
    authorization = `Bearer ${session.AccessToken}`;
    doc = (await server.app.inject('/api/openapi.json')).json<OpenApiPaths<Operation>>();
    operations = operationsOf(doc);
  });

  afterAll(() => server.close());

  /** What is wrong with the answer, if anything. */
  async function check(method: string, url: string, body?: string): Promise<string | null> {
    const res = await server.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      headers: {
        authorization,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: body }),
    });
    const what = `${method.toUpperCase()} ${url.slice(0, 160)} ${(body ?? '').slice(0, 60)}`;
    if (res.statusCode >= 500) return `${what} → ${res.statusCode} ${res.body.slice(0, 200)}`;
    if (res.statusCode < 400 || method === 'head') return null;
    let answer: { statusCode?: unknown; errorCode?: unknown };
    try {
      answer = res.json();
    } catch {
      return `${what} → ${res.statusCode} without a JSON body`;
    }
    if (typeof answer.errorCode !== 'string' || !isErrorCode(answer.errorCode)) {
      return `${what} → ${res.statusCode} with errorCode ${String(answer.errorCode)}`;
    }
    if (answer.statusCode !== res.statusCode) {
      return `${what} → ${res.statusCode} whose body says ${String(answer.statusCode)}`;
    }
    return null;
  }

  it('answers every malformed parameter and body with a known error, never 5xx', async () => {
    const ids: Record<string, string> = {
      teamId: world.team.id,
      collectionId: world.collections.owned.id,
      fileId: world.files.owned.id,
      memberId: world.users.admin.id,
    };
    const problems: string[] = [];
    let sent = 0;
    let bodyProperties = 0;
    const send = async (method: string, url: string, body?: string) => {
      sent++;
      const problem = await check(method, url, body);
      if (problem) problems.push(problem);
    };
    for (const { method, path, op } of operations) {
      const url = (over: Record<string, string> = {}) =>
        '/api' +
        path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(over[name] ?? ids[name] ?? 'x'),
        );
      const params = op.parameters ?? [];
      for (const p of params.filter((x) => x.in === 'path')) {
        for (const value of BAD_TEXT) await send(method, url({ [p.name]: value }));
      }
      for (const p of params.filter((x) => x.in === 'query')) {
        for (const value of BAD_TEXT) {
          await send(method, `${url()}?${p.name}=${encodeURIComponent(value)}`);
        }
        await send(method, `${url()}?${p.name}=1&${p.name}=2`);
      }
      if (['post', 'put', 'patch'].includes(method)) {
        for (const body of BAD_BODIES) await send(method, url(), body);
        // A named body (`$ref`) is read where it is described.
        const schema = resolveSchema<BodySchema>(
          doc,
          op.requestBody?.content?.['application/json']?.schema,
        );
        for (const property of Object.keys(schema?.properties ?? {})) {
          bodyProperties++;
          for (const value of BAD_VALUES) {
            await send(method, url(), JSON.stringify({ [property]: value }));
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // The document lists every operation, so the run is as large as the API.
    expect(operations.length).toBeGreaterThan(50);
    expect(sent).toBeGreaterThan(2000);
    // Each property of each JSON body, named components included.
    expect(bodyProperties).toBeGreaterThan(50);
  }, 120_000);

  it('answers a path Fastify refuses before routing with the same error body', async () => {
    const long = `/api/teams/${world.team.id}/collections/${'a'.repeat(300)}`;
    const tooLong = await server.app.inject({ url: long, headers: { authorization } });
    expect(tooLong.statusCode).toBe(404);
    expect(tooLong.json()).toMatchObject({ statusCode: 404, errorCode: 'notFound' });
    // No hook runs for it, so the headers of every API answer are set by the answer itself.
    expect(tooLong.headers['cache-control']).toBe('no-store');
    expect(tooLong.headers['x-content-type-options']).toBe('nosniff');
    expect(tooLong.headers['permissions-policy']).toContain('camera=()');

    const broken = await server.app.inject({
      url: `/api/teams/%E0%A4%A/collections`,
      headers: { authorization },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidRequest' });
  });
});
