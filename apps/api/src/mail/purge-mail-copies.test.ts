import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { createMailer } from './mailer.js';
import { purgeMailCopies, purgeMailCopiesJob } from './purge-mail-copies.job.js';

const DAY_MS = 24 * 60 * 60_000;

describe('purge of the console transport’s mail copies', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'raccolta-mail-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A file in the mail folder last written `ageDays` before `now`. */
  function file(name: string, now: number, ageDays: number): void {
    const at = path.join(dir, name);
    writeFileSync(at, 'Subject: x\r\n\r\nbody');
    const when = new Date(now - ageDays * DAY_MS);
    utimesSync(at, when, when);
  }

  it('deletes .eml copies older than the configured age and nothing else', async () => {
    const now = Date.now();
    file('old.eml', now, 8);
    file('just-past.eml', now, 7.01);
    file('recent.eml', now, 6.9);
    file('old-notes.txt', now, 30);
    mkdirSync(path.join(dir, 'archive.eml'));

    expect(await purgeMailCopies(dir, now, 7 * DAY_MS)).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['archive.eml', 'old-notes.txt', 'recent.eml']);
    // A second run finds nothing more to do.
    expect(await purgeMailCopies(dir, now, 7 * DAY_MS)).toBe(0);
  });

  it('a mail folder that was never created is nothing to purge', async () => {
    expect(await purgeMailCopies(path.join(dir, 'missing'), Date.now(), DAY_MS)).toBe(0);
  });

  it('the scheduled job purges the copies the console transport wrote, after MAIL_COPY_DAYS', async () => {
    const config = loadConfig({ DATA_DIR: dir, MAIL_COPY_DAYS: '3' });
    expect(config.mail.copyMaxAgeMs).toBe(3 * DAY_MS);
    const mailer = createMailer(config.mail, pino({ level: 'silent' }));
    await mailer.send({
      to: 'anna@example.com',
      subject: 'Confirm your e-mail address',
      text: 'Open https://raccolta.test/auth/verify?code=1',
      html: '<p>Open</p>',
      messageId: 'mail-job-7',
    });
    const written = readdirSync(config.mail.dir);
    expect(written).toEqual(['mail-job-7.eml']);

    const run = (now: number) =>
      purgeMailCopiesJob.prepare({})(
        { config, clock: () => now },
        {
          id: 'j',
          queue: purgeMailCopiesJob.queue,
          attempt: 1,
          maxAttempts: 3,
          createdAt: now,
          signal: new AbortController().signal,
        },
      );
    await run(Date.now() + 2 * DAY_MS);
    expect(readdirSync(config.mail.dir)).toEqual(['mail-job-7.eml']);
    await run(Date.now() + 3 * DAY_MS + 60_000);
    expect(readdirSync(config.mail.dir)).toEqual([]);
  });
});
