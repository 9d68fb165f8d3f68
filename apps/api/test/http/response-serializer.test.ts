import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  compileSchema,
  createResponseSerializerCompiler,
  serializerReport,
} from '../../src/http/response-serializer.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const item = z.object({
  id: z.string(),
  name: z.string(),
  note: z.string().nullable(),
  size: z.number().int().nullable(),
  role: z.enum(['owner', 'admin']).nullable(),
  tags: z.array(z.object({ label: z.string() })),
  cover: z.object({ url: z.string() }).nullable(),
  extra: z.string().optional(),
});
const list = z.object({
  items: z.array(item),
  pagination: z.object({ lastKey: z.string().nullable() }),
});

const row = {
  id: 'a1',
  name: 'Concert',
  note: null,
  size: 12,
  role: null,
  tags: [{ label: 'spring', secret: 'x' }],
  cover: null,
  // Columns the contract does not name must never leave.
  storage_key: 'teams/1/original',
  password_hash: '$argon2id$…',
};

describe('compiled response serializer', () => {
  it('writes what Zod writes and leaves out what the contract does not name', () => {
    const serialize = compileSchema(list);
    expect(serialize).not.toBeNull();
    const data = {
      items: [
        row,
        {
          ...row,
          id: 'a2',
          note: 'hi',
          size: null,
          role: 'admin',
          cover: { url: '/c', k: 1 },
          extra: 'e',
        },
      ],
      pagination: { lastKey: null },
      internal: true,
    };
    const written = serialize?.(data) ?? '';
    expect(JSON.parse(written)).toEqual(list.parse(data));
    expect(written).not.toContain('storage_key');
    expect(written).not.toContain('argon2');
    expect(written).not.toContain('secret');
    expect(written).not.toContain('internal');
  });

  it('refuses a response missing a required property', () => {
    const serialize = compileSchema(list);
    expect(() =>
      serialize?.({ items: [{ ...row, name: undefined }], pagination: { lastKey: null } }),
    ).toThrow();
  });

  it('escapes every string, UUIDs and instants included, as JSON.stringify does', () => {
    const shape = z.object({
      id: z.uuid(),
      at: z.iso.datetime(),
      readAt: z.iso.datetime().nullable(),
      ids: z.array(z.uuid()),
      label: z.string(),
    });
    const serialize = compileSchema(shape);
    const value = {
      id: '0195f1a2-7c3e-7d4b-9a1f-3c2b1a0f9e8d',
      at: '2026-11-27T03:30:00.000Z',
      readAt: null,
      ids: ['0195f1a2-7c3e-7d4b-9a1f-3c2b1a0f9e8e'],
      // What JSON must escape: a quote, a backslash, a control character and a lone surrogate.
      label: 'say "hi" \\ \u0001 \ud800',
    };
    expect(serialize?.(value)).toBe(JSON.stringify(value));
    const read = { ...value, readAt: '2026-11-27T03:31:00.000Z' };
    expect(serialize?.(read)).toBe(JSON.stringify(read));
    // The serializer does not validate: what a UUID or date-time field holds is escaped too.
    const forged = { ...value, id: 'x", "admin": true, "y": "', at: 'a\\"b', ids: ['"'] };
    expect(serialize?.(forged)).toBe(JSON.stringify(forged));
  });

  it('keeps every check inside a union, where the branch is chosen by the value', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const shape = z.object({
        ref: z.union([z.uuid(), z.string()]),
        owner: z.object({ id: z.uuid() }),
      });
      const serialize = compileSchema(shape);
      const id = '0195f1a2-7c3e-7d4b-9a1f-3c2b1a0f9e8d';
      for (const ref of ['say "hi"', id]) {
        const value = { ref, owner: { id } };
        expect(serialize?.(value)).toBe(JSON.stringify(value));
      }
      // Ajv, which chooses the branch, knows every format and says nothing about them.
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('compiles a schema named in the OpenAPI document as one that is not', () => {
    // An id in Zod's registry names an OpenAPI component (src/http/schema-components.ts); the
    // serializer must not see it, or the named schema would move to `definitions`, out of the
    // union where its UUID must keep its check.
    const named = z.uuid();
    z.globalRegistry.add(named, { id: 'SerializerTestNamed' });
    try {
      const serialize = compileSchema(
        z.object({ ref: z.union([named, z.string()]), owner: z.object({ id: named }) }),
      );
      const id = '0195f1a2-7c3e-7d4b-9a1f-3c2b1a0f9e8d';
      for (const ref of ['say "hi"', id]) {
        const value = { ref, owner: { id } };
        expect(serialize?.(value)).toBe(JSON.stringify(value));
      }
    } finally {
      z.globalRegistry.remove(named);
    }
  });

  it('fails a response whose UUID field holds anything else where Zod checks, escapes it where not', async () => {
    for (const checkWithZod of [true, false]) {
      const app = Fastify().withTypeProvider<ZodTypeProvider>();
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(createResponseSerializerCompiler({ checkWithZod }));
      app.get('/id', { schema: { response: { 200: z.object({ id: z.uuid() }) } } }, () => ({
        id: 'not-an-id", "admin": true',
      }));
      const res = await app.inject({ url: '/id' });
      if (checkWithZod) {
        expect(res.statusCode).toBe(500);
        expect(res.body).not.toContain('admin');
      } else {
        // Production writes what it was given, but as one string: nothing is added to the object.
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ id: 'not-an-id", "admin": true' });
      }
      await app.close();
    }
  });

  it('keeps Zod for a schema JSON Schema cannot express', () => {
    expect(compileSchema(z.object({ at: z.date() }))).toBeNull();
    expect(compileSchema({ type: 'object' })).toBeNull();
  });

  it('checks every response against Zod where asked, and fails on a broken contract', async () => {
    for (const checkWithZod of [true, false]) {
      const app = Fastify().withTypeProvider<ZodTypeProvider>();
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(createResponseSerializerCompiler({ checkWithZod }));
      // A handler that breaks its contract: a string where the contract says an integer.
      app.get(
        '/broken',
        { schema: { response: { 200: z.object({ n: z.number().int() }) } } },
        () => ({
          n: 'twelve' as unknown as number,
        }),
      );
      app.get('/fine', { schema: { response: { 200: list } } }, () => ({
        items: [row],
        pagination: { lastKey: 'k' },
      }));
      const fine = await app.inject({ url: '/fine' });
      expect(fine.statusCode).toBe(200);
      expect(fine.json()).toEqual(list.parse({ items: [row], pagination: { lastKey: 'k' } }));
      const broken = await app.inject({ url: '/broken' });
      // Checked by Zod or not (production), a value the contract's type cannot hold is an error.
      expect(broken.statusCode).toBe(500);
      await app.close();
    }
  });
});

describe('the API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('compiles the serializer of every response it declares', async () => {
    await server.app.ready();
    const { compiled, zodOnly } = serializerReport();
    expect(zodOnly).toEqual([]);
    expect(compiled).toContain('GET /api/teams 200');
    expect(compiled).toContain('GET /api/teams/:teamId/collections/:collectionId/files 200');
    expect(compiled.length).toBeGreaterThan(30);
    expect(server.config.env).toBe('test');
  });
});
