import { LEGAL_VERSIONS } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveMailTo } from '../../src/mail/recipient-limit.js';
import { createUser } from '../helpers/factories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/*
 * The mail budgets of one address: anonymous newsletter traffic never uses up the mails that
 * let its owner back into an account, and a request that sends nothing counts nothing.
 */
describe('mail budgets per recipient', () => {
  let smtp: SmtpCapture;
  let server: TestServer;
  const now = Date.now();
  let ip = 0;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(
      { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100000' },
      { worker: true, clock: () => now },
    );
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const post = (url: string, payload: object) =>
    server.app.inject({
      method: 'POST',
      url: `/api${url}`,
      payload,
      remoteAddress: `10.9.${Math.floor(++ip / 250)}.${ip % 250}`,
    });
  const mailsTo = (email: string, subject: RegExp) =>
    smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));

  it('a flood of subscribe requests for an address leaves its reset mails alone', async () => {
    const victim = 'budget.victim@example.com';
    await createUser(server.ctx, { email: victim });
    for (let i = 0; i < 12; i++) {
      const res = await post('/subscriptions', {
        email: victim,
        termsVersion: LEGAL_VERSIONS.terms,
        privacyVersion: LEGAL_VERSIONS.privacy,
      });
      expect(res.statusCode).toBe(202);
    }
    // The newsletter's own budget stops the confirmations at five an hour.
    await expect.poll(() => mailsTo(victim, /confirm/i).length).toBe(5);
    // Every reset the owner asks for within the account budget arrives.
    for (let i = 1; i <= 5; i++) {
      expect((await post('/auth/forgot-password', { email: victim })).statusCode).toBe(200);
      await expect.poll(() => mailsTo(victim, /password/i).length).toBe(i);
    }
    // The account budget holds in its turn.
    expect((await post('/auth/forgot-password', { email: victim })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailsTo(victim, /password/i)).toHaveLength(5);
  });

  it('counts nothing when one window is full and another is not', async () => {
    const db = server.ctx.db;
    const address = 'budget.windows@example.com';
    const count = async (key: string) =>
      (await db.selectFrom('rate_limits').select('count').where('key', '=', key).executeTakeFirst())
        ?.count ?? 0;
    // The day window is full, the hour window empty: nothing may be sent, and nothing counted.
    await db
      .insertInto('rate_limits')
      .values({ key: `mail:day:${address}`, count: 20, reset_at: now + 3_600_000 })
      .execute();
    expect(await reserveMailTo(db, address, now, 'account')).toBe(false);
    expect(await count(`mail:hour:${address}`)).toBe(0);
    // The newsletter budget is its own.
    expect(await reserveMailTo(db, address, now, 'newsletter')).toBe(true);
    expect(await count(`mail:newsletter:hour:${address}`)).toBe(1);
  });

  it('caps newsletter confirmations to all addresses together in an hour', async () => {
    const db = server.ctx.db;
    await db
      .insertInto('rate_limits')
      .values({ key: 'mail:newsletter-confirm:all:hour', count: 500, reset_at: now + 3_600_000 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ count: 500, reset_at: now + 3_600_000 }))
      .execute();
    const address = 'budget.global@example.com';
    expect(await reserveMailTo(db, address, now, 'newsletter')).toBe(false);
    const left = await db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', `mail:newsletter:hour:${address}`)
      .executeTakeFirst();
    expect(left?.count ?? 0).toBe(0);
    // Account mail to the same address still goes.
    expect(await reserveMailTo(db, address, now, 'account')).toBe(true);
  });
});
