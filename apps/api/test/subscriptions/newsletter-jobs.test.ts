import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UNSUBSCRIBED_EMAIL_RETENTION_DAYS } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCommandError, runAdminCommand } from '../../src/cli/admin-commands.js';
import type { JobRun } from '../../src/jobs/types.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import { startWorker } from '../../src/runtime.js';
import {
  purgeDeadlineMs,
  purgeSubscriptionsJob,
} from '../../src/subscriptions/purge-subscriptions.job.js';
import { unsubscribeToken } from '../../src/subscriptions/subscription-links.js';
import {
  DAY,
  HOUR,
  startNewsletterEnv,
  subscription,
  type NewsletterEnv,
} from './newsletter-env.js';

const run: JobRun = {
  id: 'test-run',
  queue: purgeSubscriptionsJob.queue,
  attempt: 1,
  maxAttempts: 3,
  createdAt: Date.now(),
  signal: new AbortController().signal,
};

/** Until every queued mail is sent. */
async function mailSettled(env: NewsletterEnv): Promise<void> {
  await waitUntil(async () => {
    const unsent = await env.server.ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', 'mail.send')
      .where('status', 'in', ['pending', 'running'])
      .execute();
    return unsent.length === 0;
  }, 'the queued mail to be sent');
}

/** Where the address is still stored: subscription row, mail jobs, mail counters. */
async function tracesOf(env: NewsletterEnv, email: string) {
  const { db } = env.server.ctx;
  const like = `%${email}%`;
  return {
    subscription: (await env.row(email)) !== undefined,
    jobs: (await db.selectFrom('jobs').select('id').where('payload', 'like', like).execute())
      .length,
    counters: (
      await db.selectFrom('rate_limits').select('key').where('key', 'like', like).execute()
    ).length,
  };
}

describe('the newsletter purge', () => {
  let env: NewsletterEnv;
  beforeAll(async () => {
    env = await startNewsletterEnv();
  });
  afterAll(() => env.close());

  it('keeps the 5-day deadline of spec §9 with days to spare for missed runs', () => {
    expect(purgeDeadlineMs).toBeLessThanOrEqual((UNSUBSCRIBED_EMAIL_RETENTION_DAYS - 3) * DAY);
  });

  it('deletes unsubscribed addresses after a day and unconfirmed ones once the link expired, everywhere, and keeps the rest', async () => {
    const { clock, post, query, linkIn } = env;
    await env.subscribed('stay@example.com');
    const leaving = await env.subscribed('leave@example.com');
    expect((await post('/subscriptions', subscription('stale@example.com'))).statusCode).toBe(202);
    await env.mailTo('stale@example.com', /Confirm/);
    const unsubscribedAt = clock.now;
    expect(
      (await post('/subscriptions/unsubscribe', query(linkIn(leaving, '/unsubscribe')))).statusCode,
    ).toBe(200);
    await mailSettled(env);
    expect(await tracesOf(env, 'leave@example.com')).toEqual({
      subscription: true,
      jobs: 2,
      counters: 2,
    });
    const stayed = await tracesOf(env, 'stay@example.com');

    const purgeAt = (at: number) =>
      purgeSubscriptionsJob.prepare({})({ ...env.server.ctx, clock: () => at }, run);

    await purgeAt(unsubscribedAt + DAY - 1);
    expect((await tracesOf(env, 'leave@example.com')).subscription).toBe(true);

    await purgeAt(unsubscribedAt + DAY);
    expect(await tracesOf(env, 'leave@example.com')).toEqual({
      subscription: false,
      jobs: 0,
      counters: 0,
    });
    expect((await tracesOf(env, 'stale@example.com')).subscription).toBe(true);

    await purgeAt(unsubscribedAt + 48 * HOUR);
    expect(await tracesOf(env, 'stale@example.com')).toEqual({
      subscription: false,
      jobs: 0,
      counters: 0,
    });
    // The confirmed subscriber and the mail sent to it stay.
    expect(await tracesOf(env, 'stay@example.com')).toEqual(stayed);
    expect((await env.row('stay@example.com'))?.status).toBe('confirmed');

    // Gone means gone: the link now finds no subscription.
    const again = await post('/subscriptions/unsubscribe', query(linkIn(leaving, '/unsubscribe')));
    expect(again.json()).toMatchObject({ statusCode: 404, errorCode: 'cannotUnsubscribe' });
  });

  it('runs by itself on the schedule: after days without a run, the next one deletes what is due', async () => {
    const welcome = await env.subscribed('later@example.com');
    await env.post('/subscriptions/unsubscribe', env.query(env.linkIn(welcome, '/unsubscribe')));
    // Four days pass with no run (a worker down, runs that failed): the hourly run then catches up.
    env.clock.now += 4 * DAY;
    await waitUntil(
      async () => (await env.row('later@example.com')) === undefined,
      'the scheduled purge to delete the address',
    );
    // And the next run is an hour later.
    await waitUntil(async () => {
      const next = await env.server.ctx.db
        .selectFrom('jobs')
        .select('run_at')
        .where('queue', '=', purgeSubscriptionsJob.queue)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return next?.run_at === env.clock.now + HOUR;
    }, 'the next purge to be scheduled');
  });
});

describe('send-newsletter', () => {
  let env: NewsletterEnv;
  let dir: string;
  beforeAll(async () => {
    env = await startNewsletterEnv();
    dir = mkdtempSync(path.join(tmpdir(), 'raccolta-issue-'));
  });
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, text);
    return at;
  };
  const issueJobs = () =>
    env.server.ctx.db
      .selectFrom('jobs')
      .select(['payload', 'status'])
      .where('dedupe_key', 'like', 'newsletter:%:issue:%')
      .execute();

  it('queues one e-mail per confirmed subscriber, in their language, each with its own unsubscribe link', async () => {
    const { post, query, linkIn, server } = env;
    await env.subscribed('anna@example.com', 'en');
    await env.subscribed('bruno@example.com', 'it');
    const carla = await env.subscribed('carla@example.com', 'en');
    const dario = await env.subscribed('dario@example.com', 'en');
    await post('/subscriptions/unsubscribe', query(linkIn(dario, '/unsubscribe')));
    await post('/subscriptions', subscription('elena@example.com'));
    await mailSettled(env);
    // Stopped, so the queued mail can be looked at before it leaves.
    await server.worker?.stop();

    const en = file(
      'en.md',
      '# Spring news\n\nUploads now resume\nafter a dropped connection.\n\nSee you soon.\n',
    );
    const it = file('it.md', '# Novità di primavera\n\nI caricamenti ora riprendono.\n');
    expect(await runAdminCommand(server.ctx, ['send-newsletter', '--en', en, '--it', it])).toBe(
      'Queued 3 newsletter e-mails (en 2, it 1)',
    );
    expect(await issueJobs()).toHaveLength(3);

    // Whoever unsubscribes before their mail leaves does not get it.
    await post('/subscriptions/unsubscribe', query(linkIn(carla, '/unsubscribe')));
    expect(await issueJobs()).toHaveLength(2);

    const worker = await startWorker(server.ctx);
    try {
      const anna = await env.mailTo('anna@example.com', /Spring news/);
      expect(anna.text).toContain(
        '\n\nUploads now resume after a dropped connection.\n\nSee you soon.\n\n',
      );
      const bruno = await env.mailTo('bruno@example.com', /Novità di primavera/);
      expect(bruno.text).toContain('I caricamenti ora riprendono.');
      for (const [mail, email] of [
        [anna, 'anna@example.com'],
        [bruno, 'bruno@example.com'],
      ] as const) {
        const token = unsubscribeToken(server.config.secret, email);
        expect(query(linkIn(mail, '/unsubscribe'))).toEqual({ email, token });
        const oneClick = new URL(
          /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe') ?? '')?.[1] ?? '',
        );
        expect(query(oneClick)).toEqual({ email, token });
        expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      }
      await mailSettled(env);
    } finally {
      await worker.stop();
    }
    const issues = env.smtp.messages.filter((m) => /Spring news|Novità/.test(m.subject));
    expect(
      issues
        .map((m) => m.to)
        .flat()
        .sort(),
    ).toEqual(['anna@example.com', 'bruno@example.com']);

    // One language only: everyone gets it.
    expect(await runAdminCommand(server.ctx, ['send-newsletter', '--it', it])).toBe(
      'Queued 2 newsletter e-mails (en 0, it 2)',
    );
  });

  it('explains what is wrong with the command or the files', async () => {
    const cases: [string[], RegExp][] = [
      [['send-newsletter'], /needs an issue/],
      [['send-newsletter', '--fr', file('fr.md', '# Nouvelles\n\nTexte.')], /--en <file>/],
      [['send-newsletter', '--en'], /--en <file>/],
      [['send-newsletter', '--en', path.join(dir, 'missing.md')], /Cannot read/],
      [
        ['send-newsletter', '--en', file('nosubject.md', 'Just text.\n')],
        /first line must be the subject/,
      ],
      [['send-newsletter', '--en', file('empty.md', '# Subject only\n\n')], /no text/],
    ];
    for (const [args, message] of cases) {
      await expect(runAdminCommand(env.server.ctx, args)).rejects.toThrow(AdminCommandError);
      await expect(runAdminCommand(env.server.ctx, args)).rejects.toThrow(message);
    }
  });
});
