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
    expect(errorText(en, error)).toBe('User already signed up with Email/Password.');
    expect(errorText(it_, error)).toBe('Utente già registrato con E-mail/Password.');
    expect(errorText(en, new ApiError(409, 'alreadySignedUp', { provider: 'Google' }))).toBe(
      'User already signed up with Google.',
    );
    expect(errorText(en, new ApiError(409, 'alreadySignedUp', { provider: 'microsoft' }))).toBe(
      'User already signed up with Microsoft.',
    );
    expect(errorText(en, new ApiError(409, 'alreadySignedUp'))).toBe('User already signed up.');
  });

  it('accepts a bare errorCode and falls back to generic for anything else', () => {
    expect(errorText(en, 'forbidden')).toBe('Access Denied');
    expect(errorText(en, new Error('boom'))).toBe('An error occurred');
    expect(errorText(en, 'not a code')).toBe('An error occurred');
    expect(errorText(it_, undefined)).toBe('Si è verificato un errore');
  });
});
