import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { ApiError } from './api-client';
import { errorText } from './error-text';

describe('errorText', () => {
  const en = i18n.getFixedT('en');
  const it_ = i18n.getFixedT('it');

  it("translates the errorCode, not the server's message", () => {
    expect(errorText(en, new ApiError(0, 'noConnection'))).toBe('Unable to connect to the server');
    expect(errorText(it_, new ApiError(0, 'noConnection'))).toBe(
      'Impossibile connettersi al server',
    );
    expect(errorText(en, new ApiError(410, 'expiredToken'))).toBe('This link has expired.');
  });

  it('names the provider of an earlier sign-up', () => {
    const error = new ApiError(409, 'alreadySignedUp', { provider: 'email_password' });
    expect(errorText(en, error)).toBe('User already signed up with E-mail/Password.');
    expect(errorText(it_, error)).toBe('Utente già registrato con E-mail/Password.');
    expect(errorText(en, new ApiError(409, 'alreadySignedUp', { provider: 'Google' }))).toBe(
      'User already signed up with Google.',
    );
    expect(errorText(en, new ApiError(409, 'alreadySignedUp', { provider: 'microsoft' }))).toBe(
      'User already signed up with Microsoft.',
    );
    expect(errorText(en, new ApiError(409, 'alreadySignedUp'))).toBe('User already signed up.');
  });

  it('says what is duplicated when the server names it', () => {
    const duplicate = (kind: string) => new ApiError(409, 'alreadyExists', { duplicate: kind });
    expect(errorText(en, duplicate('member'))).toBe(
      'This address already belongs to a member of the team.',
    );
    expect(errorText(en, duplicate('self'))).toBe(
      'That is your own address: you are already in the team.',
    );
    expect(errorText(en, duplicate('alias'))).toBe(
      'This alias is already taken. Choose another one.',
    );
    expect(errorText(en, duplicate('username'))).toBe(
      'This username is already taken in the team. Choose another one.',
    );
    expect(errorText(it_, duplicate('member'))).toBe(
      'Questo indirizzo appartiene già a un membro del team.',
    );
    expect(errorText(it_, duplicate('username'))).toBe(
      'Questo nome utente è già in uso nel team. Scegline un altro.',
    );
    // An answer without the detail keeps the general text.
    expect(errorText(en, duplicate('something else'))).toBe('This item already exists.');
    expect(errorText(en, new ApiError(409, 'alreadyExists'))).toBe('This item already exists.');
  });

  it('accepts a bare errorCode and falls back to generic for anything else', () => {
    expect(errorText(en, 'forbidden')).toBe('Access Denied');
    expect(errorText(en, new Error('boom'))).toBe('An error occurred');
    expect(errorText(en, 'not a code')).toBe('An error occurred');
    expect(errorText(it_, undefined)).toBe('Si è verificato un errore');
  });
});
