import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  forgotPasswordRequestSchema,
  newPasswordRequestSchema,
  refreshRequestSchema,
  resetLinkQuerySchema,
  resetPasswordFormSchema,
  resetPasswordRequestSchema,
  signInFormSchema,
  signInRequestSchema,
  signOutRequestSchema,
  signUpFormSchema,
  signUpRequestSchema,
  updateProfileRequestSchema,
  verifyEmailRequestSchema,
} from './validation-auth.js';

const TEAM_ID = '01940000-0000-7000-8000-000000000000';
const GOOD_PASSWORD = 'Abcdef1!';

/** The issues as "path: key" strings, in order. */
function issues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('sign-up', () => {
  const body = { email: 'zoe@example.it', password: GOOD_PASSWORD, nickname: 'Z', locale: 'it' };

  it('accepts the spec body; the nickname follows the preferred-name rules', () => {
    expect(signUpRequestSchema.parse({ ...body, email: ' zoe@example.it ' })).toEqual(body);
  });
  it('reports each field with its key', () => {
    expect(issues(signUpRequestSchema, {})).toEqual([
      'email: emailRequired',
      'password: passwordRequired',
      'nickname: preferredNameRequired',
      'locale: localeRequired',
    ]);
    expect(issues(signUpRequestSchema, { ...body, password: 'abcdefgh' })).toEqual([
      'password: policyPassword',
    ]);
    expect(issues(signUpRequestSchema, { ...body, nickname: 'x'.repeat(31) })).toEqual([
      'nickname: preferredNameLong',
    ]);
  });
  it('the form is the body without the locale', () => {
    expect(signUpFormSchema.safeParse({ ...body, locale: undefined }).success).toBe(true);
  });
  it('a body that is not an object is invalidInput', () => {
    expect(issues(signUpRequestSchema, 'hello')).toEqual([': invalidInput']);
  });
});

describe('sign-in', () => {
  it('takes an e-mail, or a username with an optional team id or alias', () => {
    expect(signInRequestSchema.parse({ email: 'zoe@example.it', password: 'abcdefgh' })).toEqual({
      email: 'zoe@example.it',
      password: 'abcdefgh',
    });
    expect(
      signInRequestSchema.parse({ username: 'mario.rossi', password: 'abcdefgh', team: 'My-Team' }),
    ).toEqual({ username: 'mario.rossi', password: 'abcdefgh', team: 'my-team' });
  });
  it('requires one of e-mail and username, not both', () => {
    expect(issues(signInRequestSchema, { password: 'abcdefgh' })).toEqual([
      'email: emailUsernameRequired',
    ]);
    expect(
      issues(signInRequestSchema, { email: 'a@b.it', username: 'mario', password: 'abcdefgh' }),
    ).toEqual(['username: emailOrUsernameOnly']);
  });
  it('checks only required, 8 and 100 on the password', () => {
    expect(issues(signInRequestSchema, { email: 'a@b.it', password: 'short' })).toEqual([
      'password: passwordShort',
    ]);
    expect(issues(signInRequestSchema, { email: 'a@b.it' })).toEqual([
      'password: passwordRequired',
    ]);
  });
  it('the form has one identifier field', () => {
    expect(issues(signInFormSchema, { identifier: ' ', password: '' })).toEqual([
      'identifier: emailUsernameRequired',
      'password: passwordRequired',
    ]);
  });
});

describe('new password', () => {
  const body = { newPassword: GOOD_PASSWORD, session: 's', teamId: TEAM_ID, username: 'mario' };

  it('takes newPassword, session, teamId and username', () => {
    expect(newPasswordRequestSchema.parse(body)).toEqual(body);
  });
  it('applies the password policy and needs the flow data', () => {
    expect(issues(newPasswordRequestSchema, { ...body, newPassword: 'abcdefgh' })).toEqual([
      'newPassword: policyPassword',
    ]);
    expect(issues(newPasswordRequestSchema, { newPassword: GOOD_PASSWORD })).toEqual([
      'session: invalidInput',
      'teamId: invalidInput',
      'username: usernameRequired',
    ]);
  });
});

describe('password reset', () => {
  it('forgot password takes an e-mail', () => {
    expect(issues(forgotPasswordRequestSchema, { email: 'x' })).toEqual(['email: invalidEmail']);
  });
  it('a reset link missing its e-mail or code is invalidResetLink', () => {
    expect(issues(resetLinkQuerySchema, {})).toEqual([
      'email: invalidResetLink',
      'code: invalidResetLink',
    ]);
    expect(issues(resetLinkQuerySchema, { email: 'nope', code: '123456' })).toEqual([
      'email: invalidResetLink',
    ]);
  });
  it('the reset body is the link plus a new password', () => {
    const body = { email: 'zoe@example.it', code: '123456', newPassword: GOOD_PASSWORD };
    expect(resetPasswordRequestSchema.parse(body)).toEqual(body);
    expect(issues(resetPasswordRequestSchema, { ...body, newPassword: 'Abc1!' })).toEqual([
      'newPassword: passwordShort',
    ]);
  });
});

describe('password and confirmation form', () => {
  it('accepts two equal passwords, compared after trimming', () => {
    expect(
      resetPasswordFormSchema.parse({
        password: ` ${GOOD_PASSWORD}`,
        confirmPassword: GOOD_PASSWORD,
      }),
    ).toEqual({ password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });
  });
  it('needs the confirmation when a password is given', () => {
    expect(
      issues(resetPasswordFormSchema, { password: GOOD_PASSWORD, confirmPassword: '' }),
    ).toEqual(['confirmPassword: confirmPasswordRequired']);
  });
  it('does not ask for the confirmation while the password is empty', () => {
    expect(issues(resetPasswordFormSchema, { password: '', confirmPassword: '' })).toEqual([
      'password: passwordRequired',
    ]);
  });
  it('reports a mismatch, even alongside a policy error', () => {
    expect(
      issues(resetPasswordFormSchema, { password: GOOD_PASSWORD, confirmPassword: 'Abcdef1?' }),
    ).toEqual(['confirmPassword: passwordMatch']);
    expect(issues(resetPasswordFormSchema, { password: 'abcdefgh', confirmPassword: 'x' })).toEqual(
      ['password: policyPassword', 'confirmPassword: passwordMatch'],
    );
  });
  it('reports only the password while it is too short', () => {
    expect(issues(resetPasswordFormSchema, { password: 'Ab1!', confirmPassword: 'x' })).toEqual([
      'password: passwordShort',
    ]);
  });
  it('a missing confirmation field is confirmPasswordRequired', () => {
    expect(issues(resetPasswordFormSchema, { password: GOOD_PASSWORD })).toEqual([
      'confirmPassword: confirmPasswordRequired',
    ]);
  });
});

describe('e-mail verification', () => {
  it('needs code, e-mail and username, else invalidVerification', () => {
    const body = { code: '123456', email: 'zoe@example.it', username: 'zoe' };
    expect(verifyEmailRequestSchema.parse(body)).toEqual(body);
    expect(issues(verifyEmailRequestSchema, { code: '123456', email: 'zoe@example.it' })).toEqual([
      'username: invalidVerification',
    ]);
    expect(issues(verifyEmailRequestSchema, { ...body, email: 'zoe' })).toEqual([
      'email: invalidVerification',
    ]);
  });
});

describe('tokens and profile', () => {
  it('refresh and sign-out need their token', () => {
    expect(refreshRequestSchema.parse({ refreshToken: 'r' })).toEqual({ refreshToken: 'r' });
    expect(issues(refreshRequestSchema, { refreshToken: '' })).toEqual([
      'refreshToken: invalidInput',
    ]);
    expect(issues(signOutRequestSchema, {})).toEqual(['accessToken: invalidInput']);
  });
  it('profile: first and last name required, nickname as the preferred name', () => {
    expect(
      updateProfileRequestSchema.parse({ firstName: ' Zoë ', lastName: 'Rossi', nickname: 'Z' }),
    ).toEqual({ firstName: 'Zoë', lastName: 'Rossi', nickname: 'Z' });
    expect(
      issues(updateProfileRequestSchema, { firstName: '', lastName: ' ', nickname: '' }),
    ).toEqual([
      'firstName: firstNameRequired',
      'lastName: lastNameRequired',
      'nickname: preferredNameRequired',
    ]);
  });
});
