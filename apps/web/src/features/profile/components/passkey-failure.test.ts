import { describe, expect, it } from 'vitest';
import { passkeyFailureOf } from './second-factors-section';

describe('passkeyFailureOf', () => {
  it('names a numeric address, which no retry would get past', () => {
    // As @simplewebauthn/browser throws it on 127.0.0.1.
    const invalidDomain = Object.assign(new Error('127.0.0.1 is an invalid domain'), {
      name: 'SecurityError',
      code: 'ERROR_INVALID_DOMAIN',
    });
    expect(passkeyFailureOf(invalidDomain)).toBe('address');
    expect(passkeyFailureOf(new DOMException('invalid domain', 'SecurityError'))).toBe('address');
  });

  it('calls anything else a failure to try again', () => {
    expect(passkeyFailureOf(new DOMException('cancelled', 'NotAllowedError'))).toBe('failed');
    expect(passkeyFailureOf(new Error('network'))).toBe('failed');
    expect(passkeyFailureOf('nothing')).toBe('failed');
  });
});
