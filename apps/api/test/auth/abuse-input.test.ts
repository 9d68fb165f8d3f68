import { authResultResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The abuse suite (issue 12), odd input: bodies nested without bound, text with NUL and control
 * characters, e-mail addresses the mail job cannot send to, cursors of the wrong type, duplicate
 * keys under concurrency. Runs on SQLite and, under RACCOLTA_TEST_DB=postgres, on PostgreSQL.
 */
let ipSeq = 0;
const freshIp = () => {
  ipSeq += 1;
  return `10.${150 + Math.floor(ipSeq / 250)}.${ipSeq % 250}.9`;
};

const nested = (depth: number, leaf: unknown = 1): string =>
  '['.repeat(depth) + JSON.stringify(leaf) + ']'.repeat(depth);

describe('abuse: odd input', () => {
  let server: TestServer;
  let token = '';
  let teamId = '';
  let ownerRow: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    ownerRow = await createUser(server.ctx, { email: 'odd.owner@example.com' });
    teamId = (await createTeam(server.ctx, { owner: ownerRow, alias: 'odd-team' })).id;
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'odd.owner@example.com', password: TEST_PASSWORD },
      remoteAddress: freshIp(),
    });
    token = authResultResponseSchema.parse(res.json()).result.AccessToken;
  });
  afterAll(async () => {
    await server.close();
  });

  const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: string | object) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      payload,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      remoteAddress: freshIp(),
    });
  const outcome = (res: { statusCode: number; body: string }) => ({
    status: res.statusCode,
    errorCode: (JSON.parse(res.body) as { errorCode?: string }).errorCode,
  });

  describe('nesting depth', () => {
    it('refuses a body nested 200,000 levels deep before any route sees it', async () => {
      const deep = `[{"op":"test","path":"/name","value":${nested(200_000)}}]`;
      for (const [method, url] of [
        ['PATCH', `/teams/${teamId}`],
        ['POST', '/auth/signin'],
        ['POST', '/auth/forgot-password'],
      ] as const) {
        expect(outcome(await send(method, url, deep))).toEqual({
          status: 400,
          errorCode: 'invalidInput',
        });
      }
    });

    it('refuses a body nested just past the limit and accepts one within it', async () => {
      const body = (depth: number) =>
        `[{"op":"test","path":"/name","value":${nested(depth, 'x')}}]`;
      expect(outcome(await send('PATCH', `/teams/${teamId}`, body(40)))).toEqual({
        status: 400,
        errorCode: 'invalidInput',
      });
      // Brackets inside strings are text, not nesting.
      const inString = `[{"op":"replace","path":"/name","value":${JSON.stringify('['.repeat(45))}}]`;
      expect((await send('PATCH', `/teams/${teamId}`, inString)).statusCode).toBe(200);
    });

    it('bounds the value of a team patch operation in depth and size', async () => {
      // Refused by the schema (with its issues), not compared by the service.
      const schemaRefusal = { statusCode: 400, errorCode: 'invalidInput', data: {} };
      const value = JSON.parse(nested(20, 'x')) as unknown;
      const res = await send('PATCH', `/teams/${teamId}`, [{ op: 'test', path: '/name', value }]);
      expect(res.json()).toMatchObject(schemaRefusal);
      const big = await send('PATCH', `/teams/${teamId}`, [
        { op: 'test', path: '/name', value: 'x'.repeat(100_000) },
      ]);
      expect(big.json()).toMatchObject(schemaRefusal);
    });
  });

  describe('NUL, control characters and bidi overrides', () => {
    const NUL = '\u0000';
    const anon = (url: string, payload: object) =>
      server.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress: freshIp() });
    const authed = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) =>
      server.app.inject({
        method,
        url: `/api${url}`,
        ...(payload === undefined ? {} : { payload: payload as object }),
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: freshIp(),
      });

    it('refuses NUL in the text of anonymous endpoints with 400, never 500', async () => {
      const email = `nul${NUL}@example.com`;
      const cases: [string, object][] = [
        [
          '/auth/signup',
          { email: 'nul@example.com', password: 'Sup3r-secret', nickname: `A${NUL}`, locale: 'en' },
        ],
        ['/auth/signup', { email, password: 'Sup3r-secret', nickname: 'Ann', locale: 'en' }],
        ['/auth/signin', { email, password: 'Sup3r-secret' }],
        ['/auth/signin', { username: `ann${NUL}`, password: 'Sup3r-secret' }],
        ['/auth/signin', { username: 'ann', team: `t${NUL}`, password: 'Sup3r-secret' }],
        ['/auth/forgot-password', { email }],
        ['/auth/verify-email', { email, code: 'abc', username: 'nul' }],
        ['/auth/verify-email', { email: 'nul@example.com', code: 'abc', username: `n${NUL}` }],
        ['/auth/reset-password', { email, code: 'abc', newPassword: 'Sup3r-secret1' }],
        [
          '/auth/new-password',
          { teamId, username: `u${NUL}`, session: 's', newPassword: 'Sup3r-secret1' },
        ],
        ['/auth/refresh', { refreshToken: `r${NUL}` }],
      ];
      for (const [url, payload] of cases) {
        const res = await anon(url, payload);
        expect(
          res.statusCode,
          `${url} ${JSON.stringify(payload)}: ${res.body}`,
        ).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${JSON.stringify(payload)}: ${res.body}`).toBeLessThan(500);
      }
    });

    it('refuses NUL in the text, query and path of signed-in endpoints with 400', async () => {
      const cases: [string, string, unknown][] = [
        ['PUT', '/users/@me', { firstName: `A${NUL}`, lastName: 'B', nickname: 'C' }],
        ['POST', '/teams', { name: `Team${NUL}`, mode: 'collaborative' }],
        ['POST', '/teams', { name: 'Team', description: `d${NUL}`, mode: 'collaborative' }],
        ['GET', `/teams?search=a%00b`, undefined],
        ['GET', `/teams/odd%00team`, undefined],
        ['PATCH', `/teams/${teamId}`, [{ op: 'replace', path: '/name', value: `N${NUL}` }]],
        ['POST', `/teams/${teamId}/aliases`, { alias: `a${NUL}b` }],
        ['POST', `/teams/${teamId}/collections`, { name: `C${NUL}`, mode: 'shared' }],
        [
          'POST',
          `/teams/${teamId}/members`,
          { email: `m${NUL}@example.com`, nickname: 'M', role: 'uploader', locale: 'en' },
        ],
        [
          'POST',
          `/teams/${teamId}/members`,
          { email: 'm@example.com', nickname: `M${NUL}`, role: 'uploader', locale: 'en' },
        ],
        ['GET', `/teams/${teamId}/members?lastKey=%00`, undefined],
      ];
      for (const [method, url, payload] of cases) {
        const res = await authed(method as 'GET', url, payload);
        expect(res.json(), `${method} ${url} ${JSON.stringify(payload)}`).toMatchObject({
          statusCode: 400,
          errorCode: 'invalidInput',
        });
      }
    });

    it('refuses control characters, bidi overrides and invisible-only names', async () => {
      for (const nickname of ['Ann\u0007', 'Ann\u202Egnp.exe', '\u200b\u200b', '\u3164']) {
        const res = await authed('PUT', '/users/@me', { firstName: 'A', lastName: 'B', nickname });
        expect(res.json(), JSON.stringify(nickname)).toMatchObject({
          statusCode: 400,
          errorCode: 'invalidInput',
        });
      }
      for (const name of ['Team\u2066x', '\u200b']) {
        const res = await authed('POST', '/teams', { name, mode: 'collaborative' });
        expect(res.statusCode, JSON.stringify(name)).toBe(400);
      }
      const multi = await authed('POST', '/teams', {
        name: 'Lines',
        description: 'one\ntwo',
        mode: 'collaborative',
      });
      expect(multi.statusCode).toBe(201);
    });
  });

  describe('cursors', () => {
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    it('refuses a lastKey of the wrong type with 400 invalidInput', async () => {
      const bad = [
        cursor(['not-a-number', '0190c6f0-0000-7000-8000-000000000000']),
        cursor([1.5, '0190c6f0-0000-7000-8000-000000000000']),
        cursor([1e30, '0190c6f0-0000-7000-8000-000000000000']),
        cursor([1, 'not-a-uuid']),
        cursor([1, 2]),
        cursor({ a: 1 }),
        'not-base64-json',
      ];
      for (const lastKey of bad) {
        for (const url of [
          '/teams',
          `/teams/${teamId}/members`,
          `/teams/${teamId}/collections`,
          '/collections',
          `/teams/${teamId}/files`,
        ]) {
          const res = await server.app.inject({
            url: `/api${url}?lastKey=${lastKey}`,
            headers: { authorization: `Bearer ${token}` },
            remoteAddress: freshIp(),
          });
          expect(res.json(), `${url} ${lastKey}`).toMatchObject({
            statusCode: 400,
            errorCode: 'invalidInput',
          });
        }
      }
    });
  });

  describe('duplicate keys under concurrency', () => {
    const signUp = (email: string, i: number) =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email, password: 'Sup3r-secret', nickname: `Racer ${i}`, locale: 'en' },
        remoteAddress: freshIp(),
      });

    it('parallel sign-ups of one e-mail make one account; the others are userAlreadyExists', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => signUp('race.same@example.com', i)),
      );
      const statuses = results.map(
        (r) => `${r.statusCode} ${r.json<{ errorCode?: string }>().errorCode ?? ''}`,
      );
      expect(statuses.filter((s) => s.startsWith('201'))).toHaveLength(1);
      expect(statuses.filter((s) => s === '409 userAlreadyExists')).toHaveLength(7);
    });

    it('parallel sign-ups of one local part each get their own username', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => signUp(`race.local@domain${i}.example.com`, i)),
      );
      expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
      const names = results.map((r) => r.json<{ username: string }>().username);
      expect(new Set(names).size).toBe(8);
    });

    it('parallel creations of one alias by two teams: one gets it, the other alreadyExists', async () => {
      const other = await createUser(server.ctx, { email: 'odd.other@example.com' });
      const otherToken = authResultResponseSchema.parse(
        (
          await server.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            payload: { email: 'odd.other@example.com', password: TEST_PASSWORD },
            remoteAddress: freshIp(),
          })
        ).json(),
      ).result.AccessToken;
      for (let round = 0; round < 5; round++) {
        const alias = `race-alias-${round}`;
        const teamA = await createTeam(server.ctx, { owner: ownerRow });
        const teamB = await createTeam(server.ctx, { owner: other });
        const results = await Promise.all(
          [
            [teamA.id, token],
            [teamB.id, otherToken],
          ].map(([team, bearer]) =>
            server.app.inject({
              method: 'POST',
              url: `/api/teams/${team}/aliases`,
              payload: { alias, star: false },
              headers: { authorization: `Bearer ${bearer}` },
              remoteAddress: freshIp(),
            }),
          ),
        );
        const outcomes = results
          .map((r) => `${r.statusCode} ${r.json<{ errorCode?: string }>().errorCode ?? ''}`)
          .sort();
        expect(outcomes[0]).toMatch(/^20[01] $/);
        expect(outcomes[1]).toBe('409 alreadyExists');
      }
    });
  });

  describe('e-mail addresses', () => {
    const ODD = [
      'josé@example.com',
      'user@example.c',
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a@-example.com',
      'a@example..com',
      'a@exa_mple.com',
      `${'a'.repeat(65)}@example.com`,
      'a@example.com.',
      'a b@example.com',
    ];
    const anon = (url: string, payload: object) =>
      server.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress: freshIp() });

    it('refuses, as 400 invalidEmail, every address the mail job could not send to, wherever it enters', async () => {
      for (const email of ODD) {
        const entries: [string, () => ReturnType<typeof anon>][] = [
          [
            'signup',
            () =>
              anon('/auth/signup', {
                email,
                password: 'Sup3r-secret',
                nickname: 'Odd',
                locale: 'en',
              }),
          ],
          ['signin', () => anon('/auth/signin', { email, password: 'Sup3r-secret' })],
          ['forgot', () => anon('/auth/forgot-password', { email })],
          [
            'invite',
            () =>
              send('POST', `/teams/${teamId}/members`, {
                email,
                nickname: 'Odd',
                role: 'uploader',
                locale: 'en',
              }),
          ],
        ];
        for (const [name, call] of entries) {
          const res = await call();
          expect(res.json(), `${name} ${email}`).toMatchObject({
            statusCode: 400,
            errorCode: 'invalidEmail',
          });
        }
      }
    });

    it('accepts the unusual addresses mail servers take, up to the mail job', async () => {
      for (const email of ["o'brien+tag@mail.example.co", 'x_y-z@a-b.example.museum']) {
        const res = await anon('/auth/signup', {
          email,
          password: 'Sup3r-secret',
          nickname: 'Unusual',
          locale: 'en',
        });
        expect(res.statusCode, res.body).toBe(201);
        const jobs = await server.ctx.db
          .selectFrom('jobs')
          .select('payload')
          .where('queue', '=', 'mail.send')
          .execute();
        expect(jobs.some((j) => j.payload.includes(email.toLowerCase()))).toBe(true);
      }
    });
  });
});
