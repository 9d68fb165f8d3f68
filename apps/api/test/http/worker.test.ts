import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../../src/mail/send-mail.job.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('the worker inside the API process', () => {
  let smtp: SmtpCapture;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(
      { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url },
      { worker: true },
    );
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('delivers mail enqueued in a committed transaction, in the recipient language', async () => {
    const link = 'http://localhost:3000/auth/verify?email=a%40example.com&code=abc&username=a';
    await server.ctx.db.transaction().execute((trx) =>
      enqueueMail(
        trx,
        {
          to: 'ada@example.com',
          locale: 'it',
          template: 'verifyEmail',
          vars: { link, name: 'Ada' },
        },
        server.ctx.clock,
      ),
    );
    const mail = await smtp.waitFor((m) => m.to.includes('ada@example.com'), 15_000);
    expect(mail.text).toContain(link);
    const job = await server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', 'mail.send')
      .executeTakeFirstOrThrow();
    expect(job.payload).toContain('ada@example.com');
  });

  it('sends nothing for a transaction that rolled back', async () => {
    const before = smtp.messages.length;
    await expect(
      server.ctx.db.transaction().execute(async (trx) => {
        await enqueueMail(
          trx,
          {
            to: 'ghost@example.com',
            locale: 'en',
            template: 'verifyEmail',
            vars: { link: 'http://x.test/a', name: 'G' },
          },
          server.ctx.clock,
        );
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const pending = await server.ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('payload', 'like', '%ghost@example.com%')
      .execute();
    expect(pending).toEqual([]);
    expect(smtp.messages.length).toBe(before);
  });

  it('keeps exactly one upcoming run of each scheduled maintenance job', async () => {
    const scheduled = await server.ctx.db
      .selectFrom('jobs')
      .select(['queue'])
      .where('dedupe_key', 'like', 'schedule:%')
      .where('status', 'in', ['pending', 'running'])
      .execute();
    expect(scheduled.map((j) => j.queue).sort()).toEqual([
      'collections.reminders',
      'digests.send',
      'downloads.expire',
      'jobs.purge',
      'mail.purge-copies',
      'oauth.purge',
      'rate-limits.purge',
      'sessions.purge',
      'storage.sweep-temp',
      'subscriptions.purge',
      'trash.purge',
      'uploads.expire',
    ]);
  });
});
