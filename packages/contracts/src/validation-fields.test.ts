import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  acceptTermsSchema,
  aliasSchema,
  collectionDescriptionSchema,
  collectionModeSchema,
  collectionNameSchema,
  emailSchema,
  firstNameSchema,
  idSchema,
  lastNameSchema,
  localeSchema,
  nicknameSchema,
  optionalNicknameSchema,
  parseSignInIdentifier,
  passwordSchema,
  preferredNameSchema,
  roleSchema,
  signInIdentifierSchema,
  signInPasswordSchema,
  subscribeTermsSchema,
  teamDescriptionSchema,
  teamModeSchema,
  teamNameSchema,
  teamRefSchema,
  usernameSchema,
} from './validation-fields.js';

const x = (n: number) => 'x'.repeat(n);

/** A case is [input, expected output] when valid, or [input, { key }] when it must fail with key. */
type Case = readonly [unknown, unknown];
const fails = (key: string) => ({ key });

function check(schema: z.ZodType, cases: readonly Case[]) {
  for (const [input, expected] of cases) {
    const result = schema.safeParse(input);
    if (typeof expected === 'object' && expected !== null && 'key' in expected) {
      // Exactly one issue per field: the form shows one message, and it must be the spec's one.
      expect(
        result.error?.issues.map((issue) => issue.message),
        JSON.stringify(input),
      ).toEqual([expected.key]);
    } else {
      expect(result.success, JSON.stringify(input)).toBe(true);
      expect(result.data).toEqual(expected);
    }
  }
}

describe('alias (trimmed, lower-cased, 3..30, letters digits and single inner hyphens)', () => {
  it('follows the rules in the spec order', () => {
    check(aliasSchema, [
      [' My-Team ', 'my-team'],
      ['ABC', 'abc'],
      ['team-2025', 'team-2025'],
      ['a1-b2-c3', 'a1-b2-c3'],
      [x(30), x(30)],
      [undefined, fails('aliasRequired')],
      ['', fails('aliasRequired')],
      ['   ', fails('aliasRequired')],
      ['ab', fails('aliasShort')],
      [' ab ', fails('aliasShort')],
      [x(31), fails('aliasLong')],
      ['-abc', fails('policyAlias')],
      ['abc-', fails('policyAlias')],
      ['ab--cd', fails('policyAlias')],
      ['a_b', fails('policyAlias')],
      ['my team', fails('policyAlias')],
      ['città', fails('policyAlias')],
    ]);
  });
});

describe('team name and description', () => {
  it('team name: trimmed, required, 2..50', () => {
    check(teamNameSchema, [
      [' Acme ', 'Acme'],
      ['ab', 'ab'],
      [x(50), x(50)],
      [undefined, fails('teamNameRequired')],
      ['', fails('teamNameRequired')],
      ['  ', fails('teamNameRequired')],
      ['a', fails('teamNameShort')],
      [' a ', fails('teamNameShort')],
      [x(51), fails('teamNameLong')],
    ]);
  });
  it('team description: optional, max 250, blank means absent', () => {
    check(teamDescriptionSchema, [
      [undefined, undefined],
      ['', undefined],
      ['   ', undefined],
      [' Our photos ', 'Our photos'],
      [x(250), x(250)],
      [x(251), fails('teamDescriptionLong')],
    ]);
  });
  it('team mode: collaborative or controlled', () => {
    check(teamModeSchema, [
      ['collaborative', 'collaborative'],
      ['controlled', 'controlled'],
      [undefined, fails('teamModeRequired')],
      ['open', fails('teamModeRequired')],
    ]);
  });
});

describe('collection name and description', () => {
  it('collection name: trimmed, required, 2..50', () => {
    check(collectionNameSchema, [
      [' Holidays ', 'Holidays'],
      [x(50), x(50)],
      ['', fails('collectionNameRequired')],
      [' ', fails('collectionNameRequired')],
      ['a', fails('collectionNameShort')],
      [x(51), fails('collectionNameLong')],
    ]);
  });
  it('collection description: optional, trimmed, empty becomes absent, max 250', () => {
    check(collectionDescriptionSchema, [
      [undefined, undefined],
      ['', undefined],
      ['  \n ', undefined],
      ['  Summer 2025 ', 'Summer 2025'],
      [x(250), x(250)],
      [` ${x(250)} `, x(250)],
      [x(251), fails('collectionDescriptionLong')],
    ]);
  });
  it('collection mode: owned or collaborative', () => {
    check(collectionModeSchema, [
      ['owned', 'owned'],
      ['collaborative', 'collaborative'],
      ['shared', fails('collectionModeRequired')],
      [undefined, fails('collectionModeRequired')],
    ]);
  });
});

describe('nickname (2..30; letters incl. accented, spaces, hyphens, dots, apostrophes)', () => {
  it('accepts names in any alphabet with the allowed punctuation', () => {
    check(nicknameSchema, [
      [' Mario ', 'Mario'],
      ['Zoë', 'Zoë'],
      ['Niccolò Rossi', 'Niccolò Rossi'],
      ['Élodie', 'Élodie'],
      ['Łukasz', 'Łukasz'],
      ["D'Angelo", "D'Angelo"],
      ['D’Angelo', 'D’Angelo'],
      ['Anna-Maria', 'Anna-Maria'],
      ['J.R. Smith', 'J.R. Smith'],
      ['Jo', 'Jo'],
      ['e\u0301le', 'e\u0301le'],
      [x(30), x(30)],
    ]);
  });
  it('reports required, short, long and policy', () => {
    check(nicknameSchema, [
      [undefined, fails('nicknameRequired')],
      ['', fails('nicknameRequired')],
      ['   ', fails('nicknameRequired')],
      ['J', fails('nicknameShort')],
      [' J ', fails('nicknameShort')],
      [x(31), fails('nicknameLong')],
      ['Mario1', fails('policyNickname')],
      ['mario_rossi', fails('policyNickname')],
      ['@@', fails('policyNickname')],
      ['Mario!', fails('policyNickname')],
    ]);
  });
  it('the owner nickname of a new team may be left blank', () => {
    check(optionalNicknameSchema, [
      [undefined, undefined],
      ['', undefined],
      ['  ', undefined],
      [' Zoë ', 'Zoë'],
      ['J', fails('nicknameShort')],
      [x(31), fails('nicknameLong')],
      ['Mario1', fails('policyNickname')],
    ]);
  });
});

describe('preferred name and person names', () => {
  it('preferred name: required, max 30, any characters', () => {
    check(preferredNameSchema, [
      ['J', 'J'],
      [' Mario 1! ', 'Mario 1!'],
      [x(30), x(30)],
      ['', fails('preferredNameRequired')],
      [' ', fails('preferredNameRequired')],
      [x(31), fails('preferredNameLong')],
    ]);
  });
  it('first and last name: required', () => {
    check(firstNameSchema, [
      [' Mario ', 'Mario'],
      ['', fails('firstNameRequired')],
      [x(51), fails('firstNameLong')],
    ]);
    check(lastNameSchema, [
      ['Rossi', 'Rossi'],
      [undefined, fails('lastNameRequired')],
      [x(51), fails('lastNameLong')],
    ]);
  });
});

describe('username (3..50, letters digits and dots)', () => {
  it('has one minimum, the server reading of 3', () => {
    check(usernameSchema, [
      [' mario.rossi ', 'mario.rossi'],
      ['Mario.Rossi2', 'Mario.Rossi2'],
      ['abc', 'abc'],
      [x(50), x(50)],
      ['', fails('usernameRequired')],
      ['a', fails('usernameShort')],
      ['ab', fails('usernameShort')],
      [' ab ', fails('usernameShort')],
      [x(51), fails('usernameLong')],
      ['mario_rossi', fails('policyUsername')],
      ['mario rossi', fails('policyUsername')],
      ['mario-rossi', fails('policyUsername')],
      ['zoë', fails('policyUsername')],
    ]);
  });
});

describe('passwords', () => {
  it('a chosen password: 8..100 with a digit, a lower, an upper and a special or underscore', () => {
    check(passwordSchema, [
      ['Abcdef1!', 'Abcdef1!'],
      ['Abcdef1_', 'Abcdef1_'],
      [' Abcdef1! ', 'Abcdef1!'],
      ['Àbcdèf1€', 'Àbcdèf1€'],
      [`Aa1!${x(96)}`, `Aa1!${x(96)}`],
      [undefined, fails('passwordRequired')],
      ['', fails('passwordRequired')],
      ['        ', fails('passwordRequired')],
      ['Ab1!', fails('passwordShort')],
      ['Abc1!xy', fails('passwordShort')],
      [`Aa1!${x(97)}`, fails('passwordLong')],
      ['abcdef1!', fails('policyPassword')],
      ['ABCDEF1!', fails('policyPassword')],
      ['Abcdefg!', fails('policyPassword')],
      ['Abcdefg1', fails('policyPassword')],
      ['Abcd ef1', fails('policyPassword')],
    ]);
  });
  it('a sign-in password checks only required, 8 and 100', () => {
    check(signInPasswordSchema, [
      ['abcdefgh', 'abcdefgh'],
      [x(100), x(100)],
      ['', fails('passwordRequired')],
      ['abcdefg', fails('passwordShort')],
      [x(101), fails('passwordLong')],
    ]);
  });
});

describe('e-mail and sign-in identifier', () => {
  it('e-mail: trimmed, required, simple pattern', () => {
    check(emailSchema, [
      [' mario@example.it ', 'mario@example.it'],
      ['a.b+c@sub.example.com', 'a.b+c@sub.example.com'],
      [undefined, fails('emailRequired')],
      ['', fails('emailRequired')],
      ['mario', fails('invalidEmail')],
      ['mario@example', fails('invalidEmail')],
      ['ma rio@example.it', fails('invalidEmail')],
      ['@example.it', fails('invalidEmail')],
      [`${x(250)}@a.it`, fails('emailLong')],
    ]);
  });
  it('identifier: required', () => {
    check(signInIdentifierSchema, [
      [' mario.rossi ', 'mario.rossi'],
      ['', fails('emailUsernameRequired')],
      ['  ', fails('emailUsernameRequired')],
    ]);
  });
  it('an identifier that looks like an e-mail is an e-mail, else a username', () => {
    expect(parseSignInIdentifier(' mario@example.it ')).toEqual({ email: 'mario@example.it' });
    expect(parseSignInIdentifier('mario.rossi')).toEqual({ username: 'mario.rossi' });
    expect(parseSignInIdentifier('mario@localhost')).toEqual({ username: 'mario@localhost' });
  });
});

describe('role, locale, terms and identifiers', () => {
  it('role: admin, uploader or viewer only', () => {
    check(roleSchema, [
      ['admin', 'admin'],
      ['uploader', 'uploader'],
      ['viewer', 'viewer'],
      ['owner', fails('roleRequired')],
      ['', fails('roleRequired')],
      [undefined, fails('roleRequired')],
    ]);
  });
  it('locale: en or it', () => {
    check(localeSchema, [
      ['en', 'en'],
      ['it', 'it'],
      ['fr', fails('localeRequired')],
      [undefined, fails('localeRequired')],
    ]);
  });
  it('terms must be accepted', () => {
    check(acceptTermsSchema, [
      [true, true],
      [false, fails('acceptTermsRequired')],
      [undefined, fails('acceptTermsRequired')],
    ]);
    check(subscribeTermsSchema, [
      [true, true],
      [false, fails('termsRequired')],
    ]);
  });
  it('ids are UUIDs; a team reference is an id or an alias, lower-cased', () => {
    const id = '01940000-0000-7000-8000-000000000000';
    check(idSchema, [
      [id, id],
      ['my-team', fails('invalidInput')],
    ]);
    check(teamRefSchema, [
      [' My-Team ', 'my-team'],
      [id.toUpperCase(), id],
      ['', fails('invalidInput')],
    ]);
  });
});
