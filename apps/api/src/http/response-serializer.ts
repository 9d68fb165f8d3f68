import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;
type Serialize = (data: unknown) => string;

/** `METHOD url status` of the responses compiled, and of those that kept the Zod serializer. */
const compiledResponses = new Set<string>();
const zodOnlyResponses = new Set<string>();

/** What this process compiled: every response of the API, none left to Zod (a test checks it). */
export function serializerReport(): { compiled: string[]; zodOnly: string[] } {
  return { compiled: [...compiledResponses], zodOnly: [...zodOnlyResponses] };
}

/**
 * Response serialisation compiled from each route's response schema. The contracts' Zod schemas
 * are turned into JSON Schema once per route and compiled by fast-json-stringify (Fastify's own
 * serializer), which writes exactly the properties the schema names: what the contract does not
 * name (a password hash, a storage key) never leaves, as with Zod's stripping, at a fraction of
 * its cost (Zod parses and copies every response before `JSON.stringify`; see
 * docs/benchmarks.md, "Authenticated lists under load").
 *
 * fast-json-stringify shapes but does not validate. Where `checkWithZod` is on (development and
 * tests), every response is also encoded by Zod as before and the two results must be equal, so
 * the whole API test suite proves the compiled serializer faithful to the contracts; a response
 * that breaks its contract fails there with the same error as before. A schema JSON Schema cannot
 * express (none today) keeps the Zod serializer.
 */
export function createResponseSerializerCompiler(options: {
  checkWithZod: boolean;
}): FastifySerializerCompiler<z.ZodType> {
  return (route) => {
    const compiled = compileSchema(route.schema);
    const name = `${route.method} ${route.url} ${route.httpStatus}`;
    if (!compiled) {
      zodOnlyResponses.add(name);
      return zodSerializerCompiler(route);
    }
    compiledResponses.add(name);
    if (!options.checkWithZod) return compiled;
    const zodSerialize: Serialize = zodSerializerCompiler(route);
    return (data) => {
      const expected = zodSerialize(data);
      const actual = compiled(data);
      if (!isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected))) {
        throw new Error(
          `${route.method} ${route.url}: the compiled response serializer wrote ${actual}, the contract ${expected}`,
        );
      }
      return actual;
    };
  };
}

const NO_METADATA = z.registry<Record<string, unknown>>();

/** fast-json-stringify compiled from the schema's JSON Schema, or null when it has none. */
export function compileSchema(schema: unknown): Serialize | null {
  if (!(schema instanceof z.ZodType)) return null;
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'throw',
      // Not Zod's global registry, where the OpenAPI document's component names are
      // (schema-components.ts): a named schema would move to `definitions`, out of the union
      // that must keep its checks (see `simplify`). Nothing else there changes what is written.
      metadata: NO_METADATA,
    });
  } catch {
    return null;
  }
  return fastJson(simplify(json) as Parameters<typeof fastJson>[0]);
}

/**
 * Two rewrites for fast-json-stringify, neither changing what is written:
 * - no `additionalProperties: false`: fast-json-stringify leaves out unnamed properties anyway,
 *   but where it picks an `anyOf` branch by validating the value, a row carrying more columns than
 *   the contract names would match no branch;
 * - `anyOf: [X, { type: 'null' }]` (Zod's `.nullable()`) as `type: [X's type, 'null']` where X
 *   is a plain scalar: a `typeof` test instead of validating the value against each branch.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = simplify(value);
  }
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const [a, b] = anyOf as JsonSchema[];
    const nullFirst = isNullType(a);
    const other = nullFirst ? b : a;
    if ((nullFirst || isNullType(b)) && other && isScalar(other)) {
      const { anyOf: _anyOf, ...rest } = out;
      // Only null or a string is left to tell apart, by their type.
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

const isNullType = (s: JsonSchema | undefined) =>
  s !== undefined && s.type === 'null' && Object.keys(s).length === 1;

const SCALARS = new Set(['string', 'number', 'integer', 'boolean']);
function isScalar(s: JsonSchema): boolean {
  // An enum or const would make fast-json-stringify check the value; a plain typed scalar does not.
  return typeof s.type === 'string' && SCALARS.has(s.type) && !('enum' in s) && !('const' in s);
}
