import { describe, expect, it } from 'vitest';
import { signInRequestSchema } from './validation-auth.js';
import { pageQuerySchema } from './pagination.js';
import {
  aliasSchema,
  boundedJsonValueSchema,
  collectionDescriptionSchema,
  collectionNameSchema,
  emailSchema,
  firstNameSchema,
  nicknameSchema,
  opaqueStringSchema,
  preferredNameSchema,
  teamDescriptionSchema,
  teamNameSchema,
  teamRefSchema,
  JSON_VALUE_MAX_DEPTH,
  JSON_VALUE_MAX_LENGTH,
  jsonDepthAtMost,
} from './validation-fields.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
};

describe('boundedJsonValueSchema', () => {
  it('accepts scalars and values nested up to the limit', () => {
    for (const value of ['text', 3, true, null, { a: [1, 2] }, nested(JSON_VALUE_MAX_DEPTH)]) {
      expect(boundedJsonValueSchema.safeParse(value).success).toBe(true);
    }
  });

  it('refuses values nested past the limit, however deep, without overflowing', () => {
    expect(boundedJsonValueSchema.safeParse(nested(JSON_VALUE_MAX_DEPTH + 1)).success).toBe(false);
    expect(jsonDepthAtMost(nested(200_000), JSON_VALUE_MAX_DEPTH)).toBe(false);
    expect(boundedJsonValueSchema.safeParse(nested(200_000)).error?.issues[0]?.message).toBe(
      'invalidInput',
    );
  });

  it('refuses values longer than the limit as JSON text', () => {
    expect(boundedJsonValueSchema.safeParse('x'.repeat(JSON_VALUE_MAX_LENGTH)).success).toBe(false);
    expect(boundedJsonValueSchema.safeParse('x'.repeat(JSON_VALUE_MAX_LENGTH - 2)).success).toBe(
      true,
    );
  });
});

const messageOf = (
  schema: { safeParse: (v: unknown) => { error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues[0]?.message;

describe('text fields', () => {
  const named = [
    ['preferredName', preferredNameSchema, 'preferredNameRequired'],
    ['firstName', firstNameSchema, 'firstNameRequired'],
    ['teamName', teamNameSchema, 'teamNameRequired'],
    ['collectionName', collectionNameSchema, 'collectionNameRequired'],
    ['nickname', nicknameSchema, 'nicknameRequired'],
  ] as const;

  it.each(named)('%s refuses NUL, control characters and bidi overrides', (_, schema) => {
    for (const bad of [
      'Ann\u0000a',
      'Ann\u0007a',
      'Ann\u009ba',
      'Ann\na',
      'Ann\u202Ea',
      'Ann\u2066a',
    ]) {
      expect(schema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(messageOf(schema, 'Ann\u0000a')).toMatch(/invalidInput|policyNickname/);
  });

  it.each(named)(
    '%s counts a name of invisible characters only as missing',
    (_, schema, required) => {
      for (const blank of ['\u200b', '\u200b\u200d\u2060', '\u3164', '\ufeff \u200b', '\u2800']) {
        expect(messageOf(schema, blank), JSON.stringify(blank)).toBe(required);
      }
      expect(schema.safeParse('Zoë Ann').success).toBe(true);
    },
  );

  it('descriptions keep their lines but refuse other controls; invisible-only is blank', () => {
    for (const schema of [teamDescriptionSchema, collectionDescriptionSchema]) {
      expect(schema.parse('one\ntwo\r\nthree\tfour')).toBe('one\ntwo\r\nthree\tfour');
      expect(schema.safeParse('a\u0000b').success).toBe(false);
      expect(schema.safeParse('a\u202eb').success).toBe(false);
      expect(schema.parse('\u200b\u200b')).toBeUndefined();
    }
  });

  it('identifiers, tokens, team references, usernames and cursors refuse NUL', () => {
    expect(opaqueStringSchema().safeParse('abc\u0000').success).toBe(false);
    expect(teamRefSchema.safeParse('team\u0000').success).toBe(false);
    expect(aliasSchema.safeParse('team\u0000').success).toBe(false);
    expect(emailSchema.safeParse('a\u0000b@example.com').success).toBe(false);
    expect(
      signInRequestSchema.safeParse({ username: 'ann\u0000', password: 'Sup3r-secret' }).success,
    ).toBe(false);
    expect(pageQuerySchema.safeParse({ lastKey: 'abc\u0000' }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ lastKey: 'WzEsImEiXQ' }).success).toBe(true);
  });
});

describe('the e-mail rule', () => {
  it('refuses addresses no mail server takes', () => {
    for (const email of [
      'josé@example.com',
      'user@example.c',
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a@-example.com',
      'a@example..com',
      `${'a'.repeat(65)}@example.com`,
    ]) {
      expect(messageOf(emailSchema, email), email).toBe('invalidEmail');
    }
  });

  it('accepts the usual and the unusual ones', () => {
    for (const email of ['a@b.co', "o'brien+tag@mail.example.co", 'X_Y-z@a-b.example.museum']) {
      expect(emailSchema.safeParse(email).success, email).toBe(true);
    }
  });
});
