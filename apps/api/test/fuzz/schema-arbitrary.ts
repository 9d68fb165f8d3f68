import fc from 'fast-check';

/** The part of JSON Schema (OpenAPI 3.1) the API's parameters and bodies use. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** Looks up `#/components/schemas/<name>`. */
export type Resolve = (ref: string) => JsonSchema | undefined;

/** Real values for a property of that name (ids of rows that exist), so checks pass more often. */
export type Known = (property: string) => readonly string[];

const NOTHING_KNOWN: Known = () => [];

/**
 * Strings no client should send, each a trap for some layer: NUL and lone surrogates (PostgreSQL
 * refuses both in text), an RTL override, look-alike and combining characters, a 100 kB string,
 * numbers past every integer type, and text that only looks like something else.
 */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Egnp.exe',
  '\u200B',
  'e\u0301\u0301\u0301',
  '😀'.repeat(40),
  'x'.repeat(100_000),
  '1e309',
  '-0',
  '99999999999999999999999999999',
  'NaN',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '${7*7}',
  'null',
  '[]',
];

/** Values of the wrong kind for any field. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -0,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  [],
  [null],
  {},
  { a: 1 },
  JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown,
  ...HOSTILE_STRINGS,
];

const MAX_DEPTH = 6;

/**
 * Characters of more than one code unit or code point, and ones that change how text reads.
 * (fast-check's own `grapheme` unit costs seconds to set up on first use.)
 */
const GRAPHEMES = fc.constantFrom(
  'a',
  'é',
  'e\u0301',
  'ß',
  'İ',
  '中',
  '😀',
  '👨‍👩‍👧',
  '🇮🇹',
  '\u202E',
  '\u200D',
  '\uFEFF',
);

function boundedString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, minLength + 60));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: GRAPHEMES }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }) },
  );
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'uri':
      return fc.webUrl();
    default:
  }
  if (schema.pattern?.includes('@')) {
    // Generating from the e-mail pattern itself is slow (seconds for a few hundred values).
    return fc.oneof(
      fc
        .tuple(
          fc.stringMatching(/^[A-Za-z0-9_'+-]{1,20}(\.[A-Za-z0-9_'+-]{1,8})?$/),
          fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/),
          fc.constantFrom('com', 'it', 'org', 'example'),
        )
        .map(([local, domain, tld]) => `${local}@${domain}.${tld}`),
      boundedString(schema),
    );
  }
  if (schema.pattern) {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? Infinity;
    const pattern = new RegExp(schema.pattern, 'u');
    // fast-check generates from a pattern without lookaheads: a leading one (the e-mail
    // pattern's length check) is left out of the generator and checked by the filter.
    const generated = new RegExp(schema.pattern.replace(/^\^\(\?=[^)]*\)/, '^'), 'u');
    let matching: fc.Arbitrary<string>;
    try {
      matching = fc.stringMatching(generated);
    } catch {
      return boundedString(schema);
    }
    return fc.oneof(
      matching.filter((s) => s.length >= min && s.length <= max && pattern.test(s)),
      boundedString(schema),
    );
  }
  return boundedString(schema);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum ?? -Infinity) + (integer ? 1 : 0);
  const high = schema.maximum ?? (schema.exclusiveMaximum ?? Infinity) - (integer ? 1 : 0);
  if (integer) {
    const min = Math.max(low, Number.MIN_SAFE_INTEGER);
    const max = Math.min(high, Number.MAX_SAFE_INTEGER);
    return fc.oneof(
      fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }),
      fc.constantFrom(min, max),
      fc.maxSafeInteger().filter((n) => n >= min && n <= max),
    );
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(Number.isFinite(low) ? { min: low } : {}),
    ...(Number.isFinite(high) ? { max: high } : {}),
  });
}

/**
 * Values that satisfy `schema` (as far as a generator can: a pattern with length bounds, or
 * allOf parts that constrain each other, may be missed now and then). Optional properties come
 * and go; arrays and strings stay short except where the schema asks for more.
 */
export function validArbitrary(
  schema: JsonSchema,
  resolve: Resolve,
  depth = 0,
  known: Known = NOTHING_KNOWN,
): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const target = resolve(schema.$ref);
    return target ? validArbitrary(target, resolve, depth, known) : fc.constant(null);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length)
    return fc.oneof(...alternatives.map((s) => validArbitrary(s, resolve, depth, known)));
  if (schema.allOf?.length)
    return validArbitrary(mergeAllOf(schema.allOf, resolve), resolve, depth, known);
  if (Array.isArray(schema.type))
    return fc.oneof(
      ...schema.type.map((type) => validArbitrary({ ...schema, type }, resolve, depth, known)),
    );
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > MAX_DEPTH) return fc.constant([]);
      return fc.array(validArbitrary(schema.items ?? {}, resolve, depth + 1, known), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, (schema.minItems ?? 0) + 4),
      });
    case 'object':
    default: {
      if (!schema.properties) return schema.type === 'object' ? fc.constant({}) : fc.jsonValue();
      if (depth > MAX_DEPTH) return fc.constant({});
      const props = Object.fromEntries(
        Object.entries(schema.properties).map(([key, s]) => [
          key,
          withKnown(key, s, validArbitrary(s, resolve, depth + 1, known), known),
        ]),
      );
      return fc.record(props, { requiredKeys: schema.required ?? [] });
    }
  }
}

/** A property's generated values, and often the real ones `known` gives for its name. */
function withKnown(
  key: string,
  schema: JsonSchema,
  generated: fc.Arbitrary<unknown>,
  known: Known,
): fc.Arbitrary<unknown> {
  const real = known(key);
  if (!real.length) return generated;
  const values = fc.constantFrom(...real);
  return fc.oneof(
    { weight: 1, arbitrary: generated },
    {
      weight: 3,
      arbitrary:
        schema.type === 'array' ? fc.array(values, { minLength: 1, maxLength: 3 }) : values,
    },
  );
}

/** The object schemas of `allOf` as one (properties and required lists joined). */
function mergeAllOf(parts: JsonSchema[], resolve: Resolve): JsonSchema {
  const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
  for (const raw of parts) {
    const part = raw.$ref ? (resolve(raw.$ref) ?? {}) : raw;
    if (part.allOf) Object.assign(part, mergeAllOf(part.allOf, resolve));
    if (!part.properties) return part;
    Object.assign(merged.properties ?? {}, part.properties);
    merged.required = [...(merged.required ?? []), ...(part.required ?? [])];
  }
  return merged;
}

/** A value of the wrong type for `schema`, or a hostile one of any type. */
export function wrongArbitrary(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...HOSTILE_VALUES),
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );
}

/**
 * Mostly valid values, often broken in one place: a property of the wrong type or hostile, a
 * required property left out, an unknown property (`__proto__` among them) added.
 */
export function fuzzArbitrary(
  schema: JsonSchema,
  resolve: Resolve,
  known: Known = NOTHING_KNOWN,
): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, resolve, 0, known);
  const target = schema.$ref ? (resolve(schema.$ref) ?? schema) : schema;
  const props = Object.keys(target.properties ?? {});
  const broken: fc.Arbitrary<unknown>[] = [wrongArbitrary()];
  if (props.length) {
    broken.push(
      fc
        .tuple(valid, fc.constantFrom(...props), wrongArbitrary())
        .map(([value, key, bad]) => ({ ...(value as object), [key]: bad })),
      fc
        .tuple(valid, fc.constantFrom(...props))
        .map(([value, key]) =>
          Object.fromEntries(Object.entries(value as object).filter(([name]) => name !== key)),
        ),
      fc
        .tuple(valid, fc.constantFrom('__proto__', 'constructor', 'extra', ''), wrongArbitrary())
        .map(([value, key, bad]) => {
          const copy = { ...(value as object) };
          Object.defineProperty(copy, key, { value: bad, enumerable: true, writable: true });
          return copy;
        }),
    );
  }
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    ...broken.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}
