import { PassThrough } from 'node:stream';
import fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, requestScope } from '../logger.js';
import { registerRequestScope } from './request-scope.js';

describe('the request scope', () => {
  it("puts the request's id on the lines a service logs, bodies and awaits included", async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const logger = createLogger({ level: 'info', format: 'json', destination: out });
    const app = fastify({ genReqId: () => `req-${Math.random().toString(36).slice(2)}` });
    registerRequestScope(app);
    app.post('/work', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      // A service's line, through the process logger rather than request.log.
      logger.info({ body: request.body }, 'service did its work');
      return { scope: requestScope.getStore()?.requestId ?? null };
    });
    try {
      // Over a real connection: the body arrives in the socket's own events.
      const origin = await app.listen({ host: '127.0.0.1', port: 0 });
      const res = await fetch(`${origin}/work`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ a: 1 }),
      });
      const id = res.headers.get('x-request-id');
      expect(typeof id).toBe('string');
      expect(await res.json()).toEqual({ scope: id });
      logger.flush();
      const line = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      expect(line).toMatchObject({ msg: 'service did its work', reqId: id });
      // Outside a request: no id, and a request logger's own binding is not written twice.
      text = '';
      logger.info('between requests');
      requestScope.run({ requestId: 'r-1' }, () => logger.child({ reqId: 'r-1' }).info('bound'));
      logger.flush();
      const [between, bound] = text.trim().split('\n');
      expect(JSON.parse(between ?? '{}')).not.toHaveProperty('reqId');
      expect(bound?.match(/"reqId"/g)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
