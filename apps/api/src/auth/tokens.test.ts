import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { AppError } from '../errors/app-error.js';
import { signTokens, verifyAccessToken } from './tokens.js';

function configWith(secret: string) {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/raccolta-tokens-test',
    APP_SECRET: secret,
    LOG_LEVEL: 'silent',
  });
}

const user = {
  id: 'user-1',
  email: 'ada@example.com',
  username: 'ada',
  email_verified: 1,
  token_version: 3,
};
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).errorCode;
}

describe('verifyAccessToken', () => {
  it('answers the claims, again later, and refuses the token once it has expired', async () => {
    const config = configWith('tokens-test-secret-tokens-test-secret-01');
    const { AccessToken, ExpiresIn } = await signTokens(config, user, NOW);
    expect(await verifyAccessToken(config, AccessToken, NOW)).toEqual({ sub: 'user-1', sv: 3 });
    expect(await verifyAccessToken(config, AccessToken, NOW + 1000)).toEqual({
      sub: 'user-1',
      sv: 3,
    });
    // Within the 5 s tolerance after the expiry it still counts; past it, never again.
    const expiry = NOW + ExpiresIn * 1000;
    expect(await verifyAccessToken(config, AccessToken, expiry + 4000)).toEqual({
      sub: 'user-1',
      sv: 3,
    });
    expect(await refusal(verifyAccessToken(config, AccessToken, expiry + 6000))).toBe(
      'invalidAuthorization',
    );
    expect(await refusal(verifyAccessToken(config, AccessToken, expiry + 60_000))).toBe(
      'invalidAuthorization',
    );
  });

  it('accepts a token only under the key that signed it, and never a tampered one', async () => {
    const config = configWith('tokens-test-secret-tokens-test-secret-02');
    const other = configWith('tokens-test-secret-tokens-test-secret-03');
    const { AccessToken, IdToken } = await signTokens(config, user, NOW);
    await verifyAccessToken(config, AccessToken, NOW);
    expect(await refusal(verifyAccessToken(other, AccessToken, NOW))).toBe('invalidAuthorization');
    const [header, payload, signature = ''] = AccessToken.split('.');
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await refusal(verifyAccessToken(config, flipped, NOW))).toBe('invalidAuthorization');
    // An ID token is signed with the same key but is not an access token.
    expect(await refusal(verifyAccessToken(config, IdToken, NOW))).toBe('invalidAuthorization');
  });
});
