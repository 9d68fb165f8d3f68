import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS, errorBodySchema, isErrorCode } from './errors.js';

describe('error codes', () => {
  it('maps every code to an HTTP error status', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code]).toBeLessThan(600);
    }
  });
  it('uses the statuses of docs/decisions.md for flow errors', () => {
    expect(ERROR_STATUS.newPasswordRequired).toBe(403);
    expect(ERROR_STATUS.newInvitedAccountRequired).toBe(409);
    expect(ERROR_STATUS.invalidInput).toBe(400);
    expect(ERROR_STATUS.notFound).toBe(404);
    expect(ERROR_STATUS.tooManyRequests).toBe(429);
    expect(ERROR_STATUS.generic).toBe(500);
  });
  it('recognises codes and rejects anything else', () => {
    expect(isErrorCode('notFound')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
  it('parses an error body', () => {
    const body = errorBodySchema.parse({ statusCode: 404, errorCode: 'notFound', message: 'x' });
    expect(body.errorCode).toBe('notFound');
    expect(() =>
      errorBodySchema.parse({ statusCode: 404, errorCode: 'nope', message: 'x' }),
    ).toThrow();
  });
});
