import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ERROR_STATUS, isErrorCode } from '@raccolta/contracts';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type OpenApiPaths } from '../helpers/openapi-operations.js';
import { SCHEMA_COMPONENTS } from '../../src/http/schema-components.js';
import { tusDocumentation } from '../../src/uploads/tus-docs.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  enum?: string[];
  properties?: Record<string, Schema>;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, { schema: Schema }>;
      content?: Record<string, { schema: Schema }>;
    }
  >;
}

type Document = OpenApiPaths<Operation> & { components: { schemas?: Record<string, Schema> } };

const SCHEMAS = '#/components/schemas/';

/** The named schema a `$ref` points to. */
function component(doc: Document, ref: string): Schema | undefined {
  return ref.startsWith(SCHEMAS) ? doc.components.schemas?.[ref.slice(SCHEMAS.length)] : undefined;
}

/**
 * The error codes an error response's body allows, and whether it is the `ErrorBody` component
 * (itself, through `<Code>Error`, or narrowed with `allOf`).
 */
function errorBodyOf(
  doc: Document,
  schema: Schema | undefined,
): { codes?: string[]; isErrorBody: boolean } {
  if (schema?.$ref === `${SCHEMAS}ErrorBody`) return { isErrorBody: true };
  if (schema?.$ref) return errorBodyOf(doc, component(doc, schema.$ref));
  const parts = schema?.allOf ?? [];
  return {
    codes: parts.find((part) => part.properties?.errorCode)?.properties?.errorCode?.enum,
    isErrorBody: parts.some((part) => errorBodyOf(doc, part).isErrorBody),
  };
}

const TUS_PATHS = {
  creation: '/teams/{teamId}/collections/{collectionId}/uploads',
  upload: '/teams/{teamId}/collections/{collectionId}/uploads/{uploadId}',
};

/**
 * Warnings of redocly's recommended rules the document keeps on purpose: the test server's URL is
 * localhost (a deployment serves its own), and four operations answer only with a redirect.
 */
const ACCEPTED_WARNINGS = [
  'no-server-example.com #/servers/0/url',
  'operation-2xx-response #/paths/~1oauth2~1authorize/get/responses',
  'operation-2xx-response #/paths/~1oauth2~1callback~1{provider}/get/responses',
  'operation-2xx-response #/paths/~1subscriptions~1unsubscribe/get/responses',
  'operation-2xx-response #/paths/~1digests~1unsubscribe/get/responses',
];

describe('the OpenAPI document', () => {
  let server: TestServer;
  let source: string;
  let doc: Document;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '10000' });
    const res = await server.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    source = res.body;
    doc = JSON.parse(source) as Document;
  });
  afterAll(() => server.close());

  it("passes redocly's recommended rules without an error, and without unexpected warnings", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source,
      absoluteRef: 'openapi.json',
      config,
    });
    const describe = (p: (typeof problems)[number]) =>
      `${p.ruleId} ${p.location[0]?.pointer ?? ''}`;
    expect(
      problems.filter((p) => p.severity === 'error').map((p) => `${describe(p)}: ${p.message}`),
    ).toEqual([]);
    expect(problems.filter((p) => p.severity === 'warn').map(describe)).toEqual(ACCEPTED_WARNINGS);
  });

  it('names every operation with a unique camelCase operationId and a summary', () => {
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(50);
    const ids = ops.map(({ op }) => op.operationId);
    for (const { method, path: p, op } of ops) {
      expect(op.operationId, `${method} ${p}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(op.summary, `${method} ${p}`).toBeTruthy();
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Names other code relies on.
    for (const id of ['signIn', 'listTeams', 'createDownload', 'createUpload', 'getStoredFile'])
      expect(ids).toContain(id);
  });

  it('documents the error body with the codes of each status on every operation', () => {
    for (const { method, path: p, op } of operationsOf(doc)) {
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.length, `${method} ${p}`).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        if (status === '416') continue; // A range outside the file: headers only.
        // A probe's "not ready" is its own answer (what is missing), read by load balancers.
        if (p === '/health/ready' && status === '503') continue;
        const body = errorBodyOf(doc, response.content?.['application/json']?.schema);
        // One description of the error body, which every error response refers to.
        expect(body.isErrorBody, `${method} ${p} ${status}`).toBe(true);
        expect(body.codes, `${method} ${p} ${status}`).toBeDefined();
        for (const code of body.codes ?? []) {
          expect(isErrorCode(code), `${method} ${p} ${code}`).toBe(true);
          // A protocol's refusal keeps the protocol's status (tus: 412, 415) and says when.
          if (isErrorCode(code) && ERROR_STATUS[code] !== Number(status))
            expect(response.description, `${method} ${p} ${code}`).toContain(`${code} when `);
          else expect(response.description).toContain(code);
        }
      }
      expect(op.responses['500']?.description).toContain('generic');
    }
    expect(doc.components.schemas?.ErrorBody?.properties?.errorCode).toEqual({
      $ref: `${SCHEMAS}ErrorCode`,
    });
  });

  it("names a team's second-factor requirement on the team's routes only", () => {
    const codes403 = (method: string, p: string) => {
      const op = operationsOf(doc).find((o) => o.method === method && o.path === p)?.op;
      const response = op?.responses['403'];
      return errorBodyOf(doc, response?.content?.['application/json']?.schema).codes ?? [];
    };
    for (const [method, p] of [
      ['get', '/teams/{teamId}/members'],
      ['post', '/teams/{teamId}/collections'],
      ['get', '/teams/{teamId}/collections/{collectionId}/files'],
    ] as const) {
      expect(codes403(method, p), `${method} ${p}`).toContain('secondFactorEnrolmentRequired');
    }
    expect(codes403('get', '/users/@me')).not.toContain('secondFactorEnrolmentRequired');
  });

  it("names the contracts' schemas as components that operations refer to", () => {
    const names = Object.keys(doc.components.schemas ?? {});
    // Every name given is in use: none is left out, none is written twice as <name>Input.
    expect(names).toEqual(expect.arrayContaining(Object.keys(SCHEMA_COMPONENTS)));
    expect(names.filter((name) => name.endsWith('Input'))).toEqual([]);
    const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });
    const json = (p: string, method: string, status: string) =>
      doc.paths[p]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    expect(json('/teams/{teamId}/collections/{collectionId}', 'get', '200')).toEqual(
      ref('Collection'),
    );
    expect(json('/teams/{teamId}/collections', 'get', '200')).toEqual(ref('CollectionList'));
    expect(doc.components.schemas?.CollectionList?.properties).toEqual({
      collections: { type: 'array', items: ref('Collection') },
      pagination: ref('Pagination'),
    });
    expect(json('/teams/{teamId}', 'get', '200')).toEqual(ref('Team'));
    expect(json('/users/@me', 'get', '200')).toEqual(ref('User'));
    expect(json('/teams/{teamId}/collections/{collectionId}', 'get', '404')).toEqual(
      ref('NotFoundError'),
    );
    expect(
      doc.paths['/auth/signin']?.post?.requestBody?.content['application/json']?.schema,
    ).toEqual(ref('SignInRequest'));
  });

  it('declares the headers, bodies and refusals of the tus protocol', () => {
    const ops = {
      createUpload: doc.paths[TUS_PATHS.creation]?.post,
      getUploadOffset: doc.paths[TUS_PATHS.upload]?.head,
      appendToUpload: doc.paths[TUS_PATHS.upload]?.patch,
      deleteUpload: doc.paths[TUS_PATHS.upload]?.delete,
    };
    const headers = (op: Operation | undefined) =>
      Object.fromEntries(
        (op?.parameters ?? []).filter((p) => p.in === 'header').map((p) => [p.name, p.required]),
      );
    expect(headers(ops.createUpload)).toEqual({
      'Tus-Resumable': true,
      'Upload-Length': true,
      'Upload-Metadata': false,
      'Upload-Checksum': false,
    });
    expect(headers(ops.appendToUpload)).toEqual({
      'Tus-Resumable': true,
      'Upload-Offset': true,
      'Upload-Checksum': false,
    });
    expect(headers(ops.getUploadOffset)).toEqual({ 'Tus-Resumable': true });
    expect(headers(ops.deleteUpload)).toEqual({ 'Tus-Resumable': true });
    expect(ops.appendToUpload?.description).toContain('X-HTTP-Method-Override: PATCH');
    // A POST on an upload's URL (tus's method override, once routed) is documented as PATCH is.
    const override = tusDocumentation(
      'POST',
      '/api/teams/:teamId/collections/:collectionId/uploads/:uploadId',
    );
    expect(Object.keys(override?.requestHeaders ?? {})).toEqual([
      'X-HTTP-Method-Override',
      'Tus-Resumable',
      'Upload-Offset',
      'Upload-Checksum',
    ]);
    expect(override?.requestHeaders['X-HTTP-Method-Override']).toMatchObject({
      required: true,
      schema: { enum: ['PATCH'] },
    });
    expect(override?.body).toMatchObject({ contentType: 'application/offset+octet-stream' });

    const binary = { type: 'string', format: 'binary' };
    expect(ops.appendToUpload?.requestBody).toMatchObject({
      required: true,
      content: { 'application/offset+octet-stream': { schema: binary } },
    });
    // creation-with-upload: the first bytes may come with the creation.
    expect(ops.createUpload?.requestBody).toMatchObject({
      required: false,
      content: { 'application/offset+octet-stream': { schema: binary } },
    });

    const answerHeaders = (op: Operation | undefined, status: string) =>
      Object.keys(op?.responses[status]?.headers ?? {}).sort();
    expect(answerHeaders(ops.createUpload, '201')).toEqual([
      'Location',
      'Tus-Resumable',
      'Upload-Expires',
      'Upload-Offset',
    ]);
    expect(answerHeaders(ops.getUploadOffset, '200')).toEqual([
      'Tus-Resumable',
      'Upload-Expires',
      'Upload-Length',
      'Upload-Offset',
    ]);
    expect(answerHeaders(ops.appendToUpload, '204')).toEqual([
      'Tus-Resumable',
      'Upload-Expires',
      'Upload-Offset',
    ]);
    for (const [id, op] of Object.entries(ops)) {
      expect(answerHeaders(op, '412'), id).toEqual(['Tus-Version']);
      expect(op?.responses['412']?.description, id).toContain('Tus-Resumable is not 1.0.0');
    }
    expect(
      errorBodyOf(doc, ops.appendToUpload?.responses['415']?.content?.['application/json']?.schema)
        .codes,
    ).toEqual(['fileTypeNotAllowed', 'invalidRequest']);
    expect(ops.appendToUpload?.responses['415']?.description).toContain(
      'invalidRequest when Content-Type is not application/offset+octet-stream',
    );
  });

  it('declares the storage and rendition tokens as path parameters', () => {
    for (const p of ['/storage/{token}', '/renditions/{token}']) {
      expect(doc.paths[p]?.get?.parameters).toEqual([
        expect.objectContaining({ in: 'path', name: 'token' }),
      ]);
    }
    expect(doc.paths['/storage/{token}']?.head?.operationId).toBe('headStoredFile');
  });

  /**
   * Calls each operation without a token, with made-up path parameters: those documented with the
   * bearer scheme answer 401 authorizationRequired before anything else, the public ones never do.
   */
  it('declares security as the API enforces it', async () => {
    const ops = operationsOf(doc);
    let bearer = 0;
    let open = 0;
    for (const { method, path: p, op } of ops) {
      const url = `/api${p.replace(/\{[^}]+\}/g, 'x')}`;
      const res = await server.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: { 'tus-resumable': '1.0.0' },
      });
      expect(op.security, `${method} ${p} declares its security`).toBeDefined();
      const schemes = op.security ?? [];
      // A member's access token, or a guest token of an upload link.
      const needsToken =
        schemes.length > 0 && schemes.every((scheme) => 'bearer' in scheme || 'guest' in scheme);
      if (needsToken) {
        bearer++;
        expect(res.statusCode, `${method} ${p}`).toBe(401);
        if (method !== 'head')
          expect(res.json<{ errorCode: string }>().errorCode).toBe('authorizationRequired');
      } else {
        open++;
        expect(res.statusCode, `${method} ${p}`).not.toBe(401);
      }
    }
    expect(bearer).toBeGreaterThan(30);
    expect(open).toBeGreaterThan(15);
  });

  it('gives a client whose generated types type-check and name the entities', async () => {
    const types = astToString(await openapiTS(source));
    // Each entity is written once, where it is named: a collection's `filesCount` appeared in
    // every operation answering a collection when the types were all inline.
    expect(types.match(/\bfilesCount\b/g)).toHaveLength(1);
    const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-openapi-'));
    try {
      writeFileSync(path.join(dir, 'api.d.ts'), types);
      writeFileSync(
        path.join(dir, 'usage.ts'),
        `import type { components, operations, paths } from './api.js';

type Schemas = components['schemas'];
type Collection = Schemas['Collection'];
export const collectionFiles = (c: Collection): number => c.filesCount;
// The list answers are made of the named entities.
type CollectionPage = paths['/teams/{teamId}/collections']['get']['responses'][200]['content']['application/json'];
export const firstCollection = (page: CollectionPage): Collection | undefined => page.collections[0];
export const nextPage = (page: CollectionPage): Schemas['Pagination']['lastKey'] => page.pagination.lastKey;
export const fileName = (f: Schemas['File']): string => f.name;
export const teamName = (t: Schemas['Team']): string => t.name;
export const memberRole = (m: Schemas['Member']): string => m.role;
export const downloadId = (d: Schemas['Download']): string => d.requestId;
export const userEmail = (u: Schemas['User']): string | null => u.email;
export const anyError = (e: Schemas['ErrorBody']): Schemas['ErrorCode'] => e.errorCode;
export const notFound: Schemas['NotFoundError']['errorCode'] = 'notFound';
// @ts-expect-error -- a not-found answer carries no other code
export const notFoundOther: Schemas['NotFoundError']['errorCode'] = 'forbidden';
export const signIn: Schemas['SignInRequest'] = { username: 'ada', password: 'secret' };

// tus: the headers and the body of a PATCH.
type Append = operations['appendToUpload'];
export const appendHeaders: Append['parameters']['header'] = {
  'Tus-Resumable': '1.0.0',
  'Upload-Offset': 0,
};
export const appendBody: Append['requestBody']['content']['application/offset+octet-stream'] = '';
type Unsupported = Append['responses'][412];
export const tusVersion: Unsupported['headers']['Tus-Version'] = '1.0.0';

type TeamList = paths['/teams']['get']['responses'][200]['content']['application/json'];
export const firstTeamName = (list: TeamList): string | undefined => list.teams[0]?.name;

type SignIn = operations['signIn'];
export const signInBody: SignIn['requestBody']['content']['application/json'] = {
  email: 'ada@example.org',
  password: 'secret',
};
type SignInRefused = SignIn['responses'][401]['content']['application/json'];
export const refused: SignInRefused['errorCode'] = 'notAuthorized';
// @ts-expect-error -- signing in never answers a download's error
export const impossible: SignInRefused['errorCode'] = 'downloadExpired';

type Download = paths['/teams/{teamId}/downloads']['post'];
export const downloadTeam: Download['parameters']['path']['teamId'] = 'team-alias';
`,
      );
      const program = ts.createProgram([path.join(dir, 'usage.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Generating and type-checking a client is CPU work: 17 s alone, over 30 on a busy machine.
  }, 90_000);
});
