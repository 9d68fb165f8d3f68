import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ERROR_STATUS, isErrorCode } from '@raccolta/contracts';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type OpenApiPaths } from '../helpers/openapi-operations.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: { properties?: { errorCode?: { enum?: string[] } } } }>;
    }
  >;
}

type Document = OpenApiPaths<Operation>;

/**
 * Warnings of redocly's recommended rules the document keeps on purpose: the test server's URL is
 * localhost (a deployment serves its own), the project names no licence, and three operations
 * answer only with a redirect.
 */
const ACCEPTED_WARNINGS = [
  'info-license #/info',
  'no-server-example.com #/servers/0/url',
  'operation-2xx-response #/paths/~1oauth2~1authorize/get/responses',
  'operation-2xx-response #/paths/~1oauth2~1callback~1{provider}/get/responses',
  'operation-2xx-response #/paths/~1subscriptions~1unsubscribe/get/responses',
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
        const codes = response.content?.['application/json']?.schema.properties?.errorCode?.enum;
        expect(codes, `${method} ${p} ${status}`).toBeDefined();
        for (const code of codes ?? []) {
          expect(isErrorCode(code) && ERROR_STATUS[code], `${method} ${p} ${code}`).toBe(
            Number(status),
          );
          expect(response.description).toContain(code);
        }
      }
      expect(op.responses['500']?.description).toContain('generic');
    }
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
      const needsToken = schemes.length > 0 && schemes.every((scheme) => 'bearer' in scheme);
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

  it('gives a client whose generated types type-check', async () => {
    const types = astToString(await openapiTS(source));
    const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-openapi-'));
    try {
      writeFileSync(path.join(dir, 'api.d.ts'), types);
      writeFileSync(
        path.join(dir, 'usage.ts'),
        `import type { operations, paths } from './api.js';

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
  });
});
