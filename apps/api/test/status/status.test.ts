import { statusResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('GET /status', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const read = async () =>
    statusResponseSchema.parse((await server.app.inject('/api/status')).json());

  it('names what failed in problems, in a fixed order, so clients can word it themselves', async () => {
    expect(await read()).toMatchObject({ status: 'ok', problems: [] });

    const { ctx } = server;
    const checkDatabase = ctx.checkDatabase;
    const health = ctx.storage.health.bind(ctx.storage);
    // The storage fails at once, the database later: the order stays database, storage.
    ctx.storage.health = () => Promise.reject(new Error('disk gone'));
    ctx.checkDatabase = () =>
      new Promise((_resolve, reject) => setTimeout(() => reject(new Error('db gone')), 20));
    try {
      expect(await read()).toMatchObject({
        status: 'degraded',
        problems: ['database', 'storage'],
        message: 'database unavailable; storage unavailable',
      });
      ctx.checkDatabase = checkDatabase;
      expect(await read()).toMatchObject({ status: 'degraded', problems: ['storage'] });
    } finally {
      ctx.checkDatabase = checkDatabase;
      ctx.storage.health = health;
    }
  });
});
