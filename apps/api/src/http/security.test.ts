import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { headersOf, helmetFor } from './security.js';

/** What a middleware sets on a real Node response. */
function setOnResponse(middleware: ReturnType<typeof helmetFor>): Record<string, string> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  middleware(request, response, () => undefined);
  return Object.fromEntries(
    Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]),
  );
}

describe("helmet's headers, worked out once", () => {
  it.each(['http://raccolta.test', 'https://raccolta.example'])(
    'are the ones its middleware sets on a response (%s)',
    (publicUrl) => {
      const once = headersOf(helmetFor({ publicUrl }));
      expect(once).toEqual(setOnResponse(helmetFor({ publicUrl })));
      expect(once).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none';base-uri 'none'",
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-site',
      });
      expect('strict-transport-security' in once).toBe(publicUrl.startsWith('https:'));
    },
  );

  it('follow removals and fail with the middleware', () => {
    expect(
      headersOf((_request, response, next) => {
        response.setHeader('X-One', '1');
        response.setHeader('X-Two', ['a', 'b']);
        response.removeHeader('x-one');
        next();
      }),
    ).toEqual({ 'x-two': 'a, b' });
    expect(() => headersOf((_request, _response, next) => next(new Error('bad options')))).toThrow(
      'bad options',
    );
  });
});
