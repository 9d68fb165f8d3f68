import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMailJob } from '../../src/mail/send-mail.job.js';
import { createMailer } from '../../src/mail/mailer.js';
import { enqueueJob, enqueue } from '../../src/jobs/enqueue.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import { startWorker } from '../../src/runtime.js';
import { downloadsClient } from '../downloads/downloads-env.js';
import { filesClient, nextAddress } from '../files/files-api.js';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { freePort } from '../helpers/api-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { tusClient } from '../uploads/tus-client.js';
import { startUploadServer, type UploadServer } from '../uploads/tus-world.js';
import { Scrape } from './prometheus-text.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const DURATION = 'raccolta_http_request_duration_seconds';

const mail = (to: string) => ({
  to,
  locale: 'en' as const,
  template: 'verifyEmail' as const,
  vars: { link: 'http://localhost:3000/auth/verify?code=abc', name: 'Ada' },
});

describe('GET /api/metrics with METRICS_TOKEN', () => {
  let server: UploadServer;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startUploadServer('local', { METRICS_TOKEN: TOKEN });
    world = await buildFilesWorld(server.ctx);
  });
  afterAll(() => server.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers, remoteAddress: nextAddress() });
  const scrape = async (): Promise<Scrape> => {
    const res = await get('/api/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    return new Scrape(res.body);
  };

  it("answers only the right bearer token; anything else gets an unknown path's 404", async () => {
    const unknown = await get('/api/metricz');
    expect(unknown.statusCode).toBe(404);
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789abcdef' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: TOKEN },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
    ];
    for (const headers of refused) {
      const res = await get('/api/metrics', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.json()).toEqual({
        statusCode: 404,
        errorCode: 'notFound',
        message: 'No route GET /api/metrics',
        requestId: expect.any(String) as string,
      });
      // The same headers as any unknown path (the rate limit's among them), nothing of its own.
      expect(Object.keys(res.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    }
    // HEAD is not a route either, and the path is in no document.
    const head = await server.app.inject({
      method: 'HEAD',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
      remoteAddress: nextAddress(),
    });
    expect(head.statusCode).toBe(404);
    const doc = (await get('/api/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths).filter((p) => p.includes('metrics'))).toEqual([]);
  });

  it('answers the Prometheus text format, with the process metrics, never cached', async () => {
    const res = await get('/api/metrics', { authorization: `bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const metrics = new Scrape(res.body);
    for (const name of [
      `# TYPE ${DURATION} histogram`,
      '# TYPE raccolta_jobs_run_total counter',
      '# TYPE raccolta_jobs_failed_total counter',
      '# TYPE raccolta_job_queue_depth gauge',
      '# TYPE raccolta_job_queue_oldest_waiting_seconds gauge',
      '# TYPE raccolta_jobs_running gauge',
      '# TYPE raccolta_uploads_in_progress gauge',
      '# TYPE raccolta_upload_received_bytes_total counter',
      '# TYPE raccolta_download_archive_build_duration_seconds histogram',
      '# TYPE raccolta_mail_send_failures_total counter',
      '# TYPE process_cpu_user_seconds_total counter',
      '# TYPE nodejs_eventloop_lag_seconds gauge',
    ]) {
      expect(res.body).toContain(name);
    }
    // Every queue is there, at 0 while nothing waits in it.
    expect(metrics.value('raccolta_job_queue_depth', { queue: 'downloads.build' })).toBe(0);
    expect(metrics.value('process_start_time_seconds')).toBeGreaterThan(0);
    // PostgreSQL's pool is reported; SQLite has none.
    const pool = metrics.named('raccolta_db_pool_max_connections');
    if (server.config.database.kind === 'postgres') expect(pool[0]?.value).toBe(10);
    else expect(pool).toEqual([]);
  });

  it('times requests by route template and status, never by the requested path', async () => {
    const labels = { method: 'GET', route: '/api/teams/:teamId', status_code: '200' };
    const before = (await scrape()).value(`${DURATION}_count`, labels);
    const authorization = `Bearer ${await accessToken(server.ctx, world.users.owner)}`;
    for (let i = 0; i < 3; i++) {
      expect((await get(`/api/teams/${world.team.id}`, { authorization })).statusCode).toBe(200);
    }
    // Another team's id, refused: the same template, another status.
    const refused = await get(`/api/teams/${world.otherTeam.id}`, { authorization });
    expect(refused.statusCode).toBe(404);
    await get(`/api/no-such-path/${world.team.id}`);

    const after = await scrape();
    expect(after.value(`${DURATION}_count`, labels)).toBe(before + 3);
    expect(after.value(`${DURATION}_sum`, labels)).toBeGreaterThan(0);
    expect(
      after.value(`${DURATION}_count`, { ...labels, status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(after.value(`${DURATION}_bucket`, { ...labels, le: '+Inf' })).toBe(before + 3);
    expect(
      after.value(`${DURATION}_count`, { method: 'GET', route: 'unmatched', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    const routes = new Set(after.named(`${DURATION}_count`).map((s) => s.labels.route));
    for (const route of routes) {
      expect(route).not.toContain(world.team.id);
      expect(route).not.toContain(world.otherTeam.id);
    }
    expect(after.text).not.toContain(world.team.id);
  });

  it('counts the bytes of a tus upload, in progress until its last byte', async () => {
    const collection = world.collections.uploaders;
    const tus = await tusClient(server, world.users.uploader);
    const data = Buffer.from('a line of text, many times over\n'.repeat(3000));
    const before = await scrape();
    const bytesBefore = before.value('raccolta_upload_received_bytes_total', { protocol: 'tus' });
    const inProgressBefore = before.value('raccolta_uploads_in_progress');

    const created = await tus.create(collection.team_id, collection.id, {
      length: data.length,
      filename: 'notes.txt',
    });
    expect(created.statusCode).toBe(201);
    const url = String(created.headers.location);
    const half = 40_000;
    expect((await tus.patch(url, 0, data.subarray(0, half))).statusCode).toBe(204);
    const midway = await scrape();
    expect(midway.value('raccolta_uploads_in_progress')).toBe(inProgressBefore + 1);
    expect(midway.value('raccolta_upload_received_bytes_total', { protocol: 'tus' })).toBe(
      bytesBefore + half,
    );
    // The PATCH is timed under its template, not its upload's URL.
    expect(
      midway.value(`${DURATION}_count`, {
        method: 'PATCH',
        route: '/api/teams/:teamId/collections/:collectionId/uploads/:uploadId',
        status_code: '204',
      }),
    ).toBeGreaterThanOrEqual(1);

    expect((await tus.patch(url, half, data.subarray(half))).statusCode).toBe(204);
    const done = await scrape();
    expect(done.value('raccolta_upload_received_bytes_total', { protocol: 'tus' })).toBe(
      bytesBefore + data.length,
    );
    expect(done.value('raccolta_uploads_in_progress')).toBe(inProgressBefore);
  });

  it('counts the bytes of a multipart upload', async () => {
    const files = await filesClient(server, world.users.uploader);
    const data = randomBytes(12_345);
    const before = (await scrape()).value('raccolta_upload_received_bytes_total', {
      protocol: 'multipart',
    });
    const collection = world.collections.uploaders;
    const res = await files.upload(collection.team_id, collection.id, {
      filename: 'data.bin',
      data,
    });
    expect(res.statusCode).toBe(201);
    const after = (await scrape()).value('raccolta_upload_received_bytes_total', {
      protocol: 'multipart',
    });
    expect(after).toBe(before + data.length);
  });

  it('shows queued jobs in the queue depth, and counts the runs of a worker', async () => {
    const { ctx } = server;
    const start = await scrape();
    const runsBefore = start.value('raccolta_jobs_run_total', { queue: sendMailJob.queue });
    const archivesBefore = start.value('raccolta_download_archive_build_duration_seconds_count');

    // Due for 5 s already, and a job no worker knows.
    const mailJob = await enqueueJob(
      ctx.db,
      sendMailJob,
      { payload: mail('ada@example.com'), runAt: ctx.clock() - 5000 },
      ctx.clock,
    );
    const unknownJob = await enqueue(ctx.db, { queue: 'metrics.unknown', payload: {} }, ctx.clock);
    // Not due yet: not waiting.
    await enqueueJob(
      ctx.db,
      sendMailJob,
      { payload: mail('later@example.com'), runAt: ctx.clock() + 3_600_000 },
      ctx.clock,
    );
    const download = await (
      await downloadsClient(server, world.users.owner)
    ).request(world.team.id, { collectionId: world.collections.shared.id });

    const queued = await scrape();
    expect(queued.value('raccolta_job_queue_depth', { queue: sendMailJob.queue })).toBe(1);
    expect(queued.value('raccolta_job_queue_depth', { queue: 'metrics.unknown' })).toBe(1);
    expect(queued.value('raccolta_job_queue_depth', { queue: 'downloads.build' })).toBe(1);
    expect(
      queued.value('raccolta_job_queue_oldest_waiting_seconds', { queue: sendMailJob.queue }),
    ).toBeGreaterThanOrEqual(5);

    const worker = await startWorker(ctx);
    try {
      const statusOf = async (id: string) =>
        (
          await ctx.db
            .selectFrom('jobs')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status;
      await waitUntil(
        async () =>
          (await statusOf(mailJob)) === 'succeeded' && (await statusOf(unknownJob)) === 'failed',
        'the jobs to run',
        20_000,
      );
      await waitUntil(
        async () =>
          (
            await ctx.db
              .selectFrom('downloads')
              .select('status')
              .where('id', '=', download.requestId)
              .executeTakeFirstOrThrow()
          ).status !== 'inProgress',
        'the download to be built',
        20_000,
      );
      // Its e-mail too: nothing due is left waiting.
      await waitUntil(
        async () =>
          (
            await ctx.db
              .selectFrom('jobs')
              .select('id')
              .where('status', 'in', ['pending', 'running'])
              .where('run_at', '<=', ctx.clock())
              .execute()
          ).length === 0,
        'every due job to run',
        20_000,
      );
    } finally {
      await worker.stop();
    }

    const ran = await scrape();
    // Ada's, and the download's own e-mail.
    expect(ran.value('raccolta_jobs_run_total', { queue: sendMailJob.queue })).toBe(runsBefore + 2);
    expect(
      ran.value('raccolta_jobs_failed_total', { queue: sendMailJob.queue, final: 'true' }),
    ).toBe(0);
    expect(ran.value('raccolta_jobs_run_total', { queue: 'metrics.unknown' })).toBe(1);
    expect(
      ran.value('raccolta_jobs_failed_total', { queue: 'metrics.unknown', final: 'true' }),
    ).toBe(1);
    expect(ran.value('raccolta_job_queue_depth', { queue: sendMailJob.queue })).toBe(0);
    expect(
      ran.value('raccolta_job_queue_oldest_waiting_seconds', { queue: sendMailJob.queue }),
    ).toBe(0);
    expect(ran.value('raccolta_download_archive_build_duration_seconds_count')).toBe(
      archivesBefore + 1,
    );
  });

  it('counts mail the transport failed to send', async () => {
    const before = (await scrape()).value('raccolta_mail_send_failures_total', {
      transport: 'smtp',
    });
    // Nothing listens there: the connection is refused.
    const port = await freePort();
    const mailer = createMailer(
      { transport: 'smtp', url: `smtp://127.0.0.1:${port}`, dir: server.dataDir, from: 'x@y.z' },
      server.ctx.logger,
      { failures: server.ctx.metrics.mailSendFailures },
    );
    await expect(
      mailer.send({ to: 'ada@example.com', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' }),
    ).rejects.toThrow();
    mailer.close();
    const after = (await scrape()).value('raccolta_mail_send_failures_total', {
      transport: 'smtp',
    });
    expect(after).toBe(before + 1);
  });
});

describe('metrics without METRICS_TOKEN or METRICS_PORT', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('exposes nothing and times nothing', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of attempts) {
      const res = await server.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers,
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        statusCode: 404,
        errorCode: 'notFound',
        message: 'No route GET /api/metrics',
        requestId: expect.any(String) as string,
      });
    }
    expect(server.metricsServer).toBeNull();
    expect(server.ctx.metrics.exposed).toBe(false);
    const own = new Scrape(await server.ctx.metrics.registry.metrics());
    expect(own.named(`${DURATION}_count`)).toEqual([]);
    // Nor are the process metrics collected.
    expect(own.named('process_cpu_user_seconds_total')).toEqual([]);
  });
});

describe('the METRICS_PORT listener of the API process', () => {
  it('serves GET /metrics without a token on METRICS_HOST, and is closed with the server', async () => {
    const server = await startTestServer({ METRICS_PORT: '0' });
    let url: string;
    try {
      const listener = server.metricsServer;
      if (!listener) throw new Error('no metrics listener');
      url = listener.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(listener.port).toBeGreaterThan(0);

      // The API's own requests are timed; its /api/metrics stays unknown without a token.
      const status = await server.app.inject({ url: '/api/status', remoteAddress: nextAddress() });
      expect(status.statusCode).toBe(200);
      const onApi = await server.app.inject({
        url: '/api/metrics',
        remoteAddress: nextAddress(),
      });
      expect(onApi.statusCode).toBe(404);

      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const metrics = new Scrape(await res.text());
      expect(
        metrics.value(`${DURATION}_count`, {
          method: 'GET',
          route: '/api/status',
          status_code: '200',
        }),
      ).toBe(1);
      expect(metrics.value('raccolta_job_queue_depth', { queue: 'mail.send' })).toBe(0);
      expect(metrics.value('process_start_time_seconds')).toBeGreaterThan(0);

      expect((await fetch(`${url}/`)).status).toBe(404);
      expect((await fetch(`${url}/api/metrics`)).status).toBe(404);
      const post = await fetch(`${url}/metrics`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET');
    } finally {
      await server.close();
    }
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });
});
