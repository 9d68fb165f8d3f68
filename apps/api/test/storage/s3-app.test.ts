import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { startTestServer } from '../helpers/test-server.js';

let s3: TestS3;

beforeAll(async () => {
  s3 = await startTestS3();
});

afterAll(async () => {
  await s3.close();
});

describe('the app on STORAGE=s3', () => {
  it('runs on the S3 driver and reports the bucket healthy', async () => {
    const server = await startTestServer(s3.env);
    try {
      expect(server.ctx.storage.kind).toBe('s3');
      const res = await server.app.inject({ method: 'GET', url: '/api/status' });
      expect(res.json()).toMatchObject({ status: 'ok' });
    } finally {
      await server.close();
    }
  });

  it('reports storage unavailable when the bucket is missing', async () => {
    const server = await startTestServer({ ...s3.env, S3_BUCKET: 'no-such-bucket' });
    try {
      const res = await server.app.inject({ method: 'GET', url: '/api/status' });
      expect(res.json()).toMatchObject({ status: 'degraded', message: 'storage unavailable' });
    } finally {
      await server.close();
    }
  });
});
