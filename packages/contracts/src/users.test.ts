import { describe, expect, it } from 'vitest';
import {
  authResultResponseSchema,
  meResponseSchema,
  newPasswordRequiredDataSchema,
  tokenSetSchema,
} from './users.js';
import { displayName } from './display-name.js';

const ID = '01940000-0000-7000-8000-000000000000';

describe('display name: first+last, else first, else nickname, else e-mail, else username', () => {
  const all = {
    firstName: 'Zoë',
    lastName: 'Rossi',
    nickname: 'zo',
    email: 'zoe@example.it',
    username: 'zoe.rossi',
  };
  it.each([
    [all, 'Zoë Rossi'],
    [{ ...all, lastName: null }, 'Zoë'],
    [{ ...all, firstName: null }, 'zo'],
    [{ ...all, firstName: null, nickname: null }, 'zoe@example.it'],
    [{ username: 'zoe.rossi' }, 'zoe.rossi'],
    [{ firstName: '  ', lastName: 'Rossi', nickname: ' zo ' }, 'zo'],
    [{}, ''],
  ])('%j → %s', (user, expected) => {
    expect(displayName(user)).toBe(expected);
  });
});

describe('user shape', () => {
  const me = {
    userId: ID,
    userScope: 'global',
    email: 'zoe@example.it',
    username: null,
    nickname: 'Zoë',
    firstName: null,
    lastName: null,
    avatarUrl: null,
  };
  it('parses the current user', () => {
    expect(meResponseSchema.parse(me)).toEqual(me);
    expect(meResponseSchema.safeParse({ ...me, userScope: 'admin' }).success).toBe(false);
  });
});

describe('token set', () => {
  const tokens = { IdToken: 'i', TokenType: 'Bearer', AccessToken: 'a', ExpiresIn: 3600 };

  it('parses a sign-in or refresh result, the refresh token optional', () => {
    expect(tokenSetSchema.parse(tokens)).toEqual(tokens);
    expect(authResultResponseSchema.parse({ result: { ...tokens, RefreshToken: 'r' } })).toEqual({
      result: { ...tokens, RefreshToken: 'r' },
    });
  });
  it.each(['IdToken', 'TokenType', 'AccessToken', 'ExpiresIn'] as const)(
    'a result without %s is tokensMissing',
    (field) => {
      const result = tokenSetSchema.safeParse({ ...tokens, [field]: undefined });
      expect(result.error?.issues.map((issue) => issue.message)).toEqual(['tokensMissing']);
    },
  );
  it('no result at all is tokensMissing', () => {
    expect(tokenSetSchema.safeParse(null).error?.issues.map((issue) => issue.message)).toEqual([
      'tokensMissing',
    ]);
  });
  it('parses the data of newPasswordRequired', () => {
    const data = { session: 's', teamId: ID, username: 'mario.rossi' };
    expect(newPasswordRequiredDataSchema.parse(data)).toEqual(data);
  });
});
