import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/create-db.js';
import { createWorker, type Worker } from '../jobs/worker.js';
import { waitForDisconnect, waitUntil } from '../jobs/test-utils.fixture.js';
import { startSmtpCapture, type SmtpCapture } from '../../test/helpers/smtp-capture.js';
import { openTestDb, testDbKind, type TestDatabase } from '../../test/helpers/test-db.js';
import { createMailer, type Mailer } from './mailer.js';
import { enqueueMail, sendMailJob } from './send-mail.job.js';

describe('send-mail job', () => {
  let db: Db;
  let database: TestDatabase;
  let close: () => Promise<void>;
  let capture: SmtpCapture;
  let mailer: Mailer;
  let dir: string;
  let worker: Worker | undefined;
  /** Added to the worker's clock to jump over a retry's back-off. */
  let skew = 0;

  beforeEach(async () => {
    ({ db, database, close } = await openTestDb());
    capture = await startSmtpCapture();
    dir = mkdtempSync(path.join(tmpdir(), 'raccolta-mail-'));
    mailer = createMailer(
      { transport: 'smtp', url: capture.url, dir, from: 'Raccolta <no-reply@raccolta.test>' },
      pino({ level: 'silent' }),
    );
    skew = 0;
  });
  afterEach(async () => {
    await worker?.stop({ timeoutMs: 1000 });
    worker = undefined;
    mailer.close();
    await capture.close();
    await db.destroy();
    await waitForDisconnect(database.config);
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function startWorker(): Promise<void> {
    worker = createWorker({
      db,
      dbKind: testDbKind(),
      jobs: [sendMailJob],
      deps: { mailer },
      concurrency: 2,
      leaseMs: 5000,
      pollMs: 10,
      logger: pino({ level: 'silent' }),
      clock: () => Date.now() + skew,
    });
    await worker.start();
  }

  const getJob = (id: string) =>
    db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('sends a mail enqueued in a transaction, through the worker, to the SMTP server', async () => {
    const accept = 'https://app.example/teams/t1/invitations/accept?key=abc';
    const reject = 'https://app.example/teams/t1/invitations/reject?key=abc';
    const id = await db.transaction().execute((trx) =>
      enqueueMail(
        trx,
        {
          to: 'luca@example.com',
          locale: 'en',
          template: 'invitation',
          vars: {
            teamName: 'Choir',
            inviterName: 'Sara',
            role: 'viewer',
            acceptLink: accept,
            rejectLink: reject,
            expiresAt: Date.now() + 7 * 24 * 3600_000,
          },
        },
        Date.now,
      ),
    );
    expect((await getJob(id)).queue).toBe('mail.send');
    await startWorker();

    const mail = await capture.waitFor((m) => m.to.includes('luca@example.com'));
    expect(mail.subject).toBe('Sara invited you to join Choir on Raccolta');
    expect(mail.text).toContain(accept);
    expect(mail.text).toContain(reject);
    expect(mail.html).toContain(`href="${accept}"`);
    // The Message-ID names the job, so a resend after a crash is recognisably the same mail.
    expect(mail.messageId).toBe(`<mail-${id}@raccolta.test>`);
    await waitUntil(
      async () => (await getJob(id)).status === 'succeeded',
      'the mail job to succeed',
    );
  });

  it('retries later when the SMTP server refuses the recipient', async () => {
    capture.rejectRecipients(() => ({ code: 451, message: 'Mailbox busy, try later' }));
    const link = 'https://app.example/auth/reset?email=x%40example.com&code=42';
    const id = await enqueueMail(
      db,
      { to: 'x@example.com', locale: 'it', template: 'resetPassword', vars: { link } },
      Date.now,
    );
    await startWorker();

    await waitUntil(async () => {
      const job = await getJob(id);
      return job.status === 'pending' && job.attempts === 1;
    }, 'the first attempt to fail');
    const failed = await getJob(id);
    expect(failed.last_error).toMatch(/451/);
    expect(failed.run_at).toBeGreaterThan(Date.now() + 5000);
    expect(capture.messages).toHaveLength(0);

    capture.rejectRecipients(null);
    skew = 60 * 60_000;
    const mail = await capture.waitFor((m) => m.to.includes('x@example.com'));
    expect(mail.subject).toBe('Reimposta la password di Raccolta');
    expect(mail.text).toContain(link);
    await waitUntil(async () => (await getJob(id)).status === 'succeeded', 'the retry to succeed');
    expect((await getJob(id)).attempts).toBe(2);
    expect(capture.messages).toHaveLength(1);
  });

  it('refuses to enqueue a mail with invalid variables', async () => {
    await expect(
      enqueueMail(
        db,
        {
          to: 'x@example.com',
          locale: 'en',
          template: 'verifyEmail',
          vars: { link: 'javascript:alert(1)' },
        },
        Date.now,
      ),
    ).rejects.toThrow();
    await expect(
      enqueueMail(
        db,
        {
          to: 'not an address',
          locale: 'en',
          template: 'verifyEmail',
          vars: { link: 'https://a.example/' },
        },
        Date.now,
      ),
    ).rejects.toThrow();
    expect(await db.selectFrom('jobs').selectAll().execute()).toHaveLength(0);
  });
});
