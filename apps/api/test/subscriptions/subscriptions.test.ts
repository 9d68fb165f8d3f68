import { LEGAL_VERSIONS } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeToken } from '../../src/subscriptions/subscription-links.js';
import {
  DAY,
  HOUR,
  startNewsletterEnv,
  subscription,
  type NewsletterEnv,
} from './newsletter-env.js';

/**
 * The newsletter API (spec §7 "Newsletter", §8, §9): double opt-in, the welcome e-mail with its
 * RFC 8058 headers, unsubscribing from the page and with a mail client's one-click POST. Runs on
 * SQLite and, under RACCOLTA_TEST_DB=postgres, on PostgreSQL.
 */
describe('newsletter subscriptions', () => {
  let env: NewsletterEnv;
  beforeAll(async () => {
    env = await startNewsletterEnv();
  });
  afterAll(() => env.close());

  const mailJobs = () =>
    env.server.ctx.db.selectFrom('jobs').select('id').where('queue', '=', 'mail.send').execute();

  it('subscribes, confirms from the e-mail, welcomes with the unsubscribe headers, and unsubscribes in one click', async () => {
    const { post, call, mailTo, linkIn, query, row, clock, server } = env;
    const res = await post('/subscriptions', subscription('  Zoe@Example.com ', { locale: 'it' }));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ status: 'pending' });

    const pending = await row('zoe@example.com');
    expect(pending).toMatchObject({
      status: 'pending',
      locale: 'it',
      terms_version: LEGAL_VERSIONS.terms,
      privacy_version: LEGAL_VERSIONS.privacy,
      accepted_at: clock.now,
      confirmed_at: null,
      expires_at: clock.now + 48 * HOUR,
    });

    // Double opt-in: a confirmation e-mail in the visitor's language, no newsletter headers yet.
    const confirmation = await mailTo('zoe@example.com', /Conferma/);
    expect(confirmation.subject).toBe("Conferma l'iscrizione alla newsletter di Raccolta");
    expect(confirmation.headers.has('list-unsubscribe')).toBe(false);
    const link = linkIn(confirmation, '/newsletter/confirm');
    expect(link.origin).toBe(server.config.publicUrl);
    const { email, token } = query(link);
    expect(email).toBe('zoe@example.com');
    // The token is signed, not stored: when it was sent and a 256-bit HMAC of address and instant.
    const [issued, mac] = token.split('.');
    expect(parseInt(issued ?? '', 36)).toBe(clock.now);
    expect(Buffer.from(mac ?? '', 'base64url').length).toBe(32);
    expect(JSON.stringify(await row('zoe@example.com'))).not.toContain(mac);

    const confirmed = await post('/subscriptions/confirm', { email, token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ status: 'confirmed' });
    expect(await row('zoe@example.com')).toMatchObject({
      status: 'confirmed',
      confirmed_at: clock.now,
      expires_at: null,
    });
    // The same link again: already confirmed, and no second welcome.
    const reused = await post('/subscriptions/confirm', { email, token });
    expect(reused.statusCode).toBe(200);
    expect(reused.json()).toEqual({ status: 'alreadyConfirmed' });

    // The welcome is the first newsletter e-mail: unsubscribe link and RFC 8058 headers.
    const welcome = await mailTo('zoe@example.com', /benvenuto/);
    expect(welcome.subject).toBe('Ti diamo il benvenuto nella newsletter di Raccolta');
    const page = linkIn(welcome, '/unsubscribe');
    expect(page.origin).toBe(server.config.publicUrl);
    expect(query(page)).toEqual({
      email: 'zoe@example.com',
      token: unsubscribeToken(server.config.secret, 'zoe@example.com'),
    });
    expect(welcome.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = new URL(
      /^<(.+)>$/.exec(welcome.headers.get('list-unsubscribe') ?? '')?.[1] ?? '',
    );
    expect(oneClick.href).toBe(
      `${server.config.apiPublicUrl}/subscriptions/unsubscribe${page.search}`,
    );
    expect(welcome.html).toContain('href="http');
    const welcomes = () => env.smtp.messages.filter((m) => /benvenuto/.test(m.subject));
    expect(welcomes()).toHaveLength(1);

    // A mail client's one-click POST: the URL of the header with the form body of RFC 8058.
    const unsubscribed = await server.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribed.statusCode).toBe(200);
    expect(unsubscribed.json()).toEqual({ status: 'unsubscribed' });
    expect(await row('zoe@example.com')).toMatchObject({
      status: 'unsubscribed',
      unsubscribed_at: clock.now,
      expires_at: clock.now + DAY,
      confirm_token_hash: null,
    });

    // The page's call, a second time: the same answer.
    const again = await post('/subscriptions/unsubscribe', query(page));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'unsubscribed' });
    // The confirmation link does not bring the subscription back.
    const stale = await post('/subscriptions/confirm', { email, token });
    expect(stale.json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidSubscriptionConfirmation',
    });
    expect(welcomes()).toHaveLength(1);

    // A GET of the header's URL (a client without one-click) only leads to the web page.
    const opened = await call({
      method: 'GET',
      url: `${oneClick.pathname.slice(4)}${oneClick.search}`,
    });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`${server.config.publicUrl}/unsubscribe${page.search}`);
  });

  it('takes the multipart/form-data one-click body of RFC 8058 too', async () => {
    const welcome = await env.subscribed('multi@example.com');
    const oneClick = new URL(
      /^<(.+)>$/.exec(welcome.headers.get('list-unsubscribe') ?? '')?.[1] ?? '',
    );
    const boundary = '---FormBoundaryjWmhtjORrn';
    const res = await env.server.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(200);
    expect((await env.row('multi@example.com'))?.status).toBe('unsubscribed');
  });

  it('answers alreadySubscribed for a confirmed address and changes nothing', async () => {
    await env.subscribed('already@example.com');
    const before = await env.row('already@example.com');
    const jobs = (await mailJobs()).length;
    env.clock.now += 1000;
    const res = await env.post(
      '/subscriptions',
      subscription('ALREADY@example.com', { locale: 'it' }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ statusCode: 409, errorCode: 'alreadySubscribed' });
    expect(await env.row('already@example.com')).toEqual(before);
    expect(await mailJobs()).toHaveLength(jobs);
  });

  it('sends a pending address another link, any link in time confirms it, an older one then says already confirmed', async () => {
    const { post, mailTo, linkIn, query, smtp, clock } = env;
    const address = 'pending@example.com';
    const confirmations = () => smtp.messages.filter((m) => m.to.includes(address));

    expect((await post('/subscriptions', subscription(address))).statusCode).toBe(202);
    const first = query(linkIn(await mailTo(address, /Confirm/), '/newsletter/confirm'));
    clock.now += 10 * 60_000;
    // Again, now in Italian: the latest request's language and versions count.
    expect((await post('/subscriptions', subscription(address, { locale: 'it' }))).statusCode).toBe(
      202,
    );
    const second = query(linkIn(await mailTo(address, /Conferma/), '/newsletter/confirm'));
    expect(second.token).not.toBe(first.token);
    expect(await env.row(address)).toMatchObject({
      status: 'pending',
      locale: 'it',
      accepted_at: clock.now,
    });

    // Five confirmation mails an hour reach one address; more requests answer alike, send nothing.
    for (let i = 3; i <= 5; i++) {
      const before = smtp.messages.length;
      expect((await post('/subscriptions', subscription(address))).statusCode).toBe(202);
      await mailTo(address, /Confirm/, before);
    }
    const jobs = (await mailJobs()).length;
    for (let i = 0; i < 2; i++) {
      expect((await post('/subscriptions', subscription(address))).statusCode).toBe(202);
    }
    expect(await mailJobs()).toHaveLength(jobs);
    expect(confirmations()).toHaveLength(5);

    // The first link still works: the address is confirmed, welcomed once.
    const old = await post('/subscriptions/confirm', first);
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json()).toEqual({ status: 'confirmed' });
    expect((await env.row(address))?.status).toBe('confirmed');
    // Any other link of the address now says so, and changes nothing.
    const last = confirmations().at(-1);
    if (!last) throw new Error('no confirmation');
    for (const link of [second, query(linkIn(last, '/newsletter/confirm')), first]) {
      const res = await post('/subscriptions/confirm', link);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'alreadyConfirmed' });
    }
    await mailTo(address, /benvenuto|welcome/i);
    expect(confirmations().filter((m) => /benvenuto|welcome/i.test(m.subject))).toHaveLength(1);
    // A link of another address, or a forged one, proves nothing about this one.
    for (const wrong of [
      { email: 'other@example.com', token: first.token },
      { email: address, token: `${first.token.slice(0, -2)}AA` },
    ]) {
      expect((await post('/subscriptions/confirm', wrong)).json()).toMatchObject({
        statusCode: 400,
        errorCode: 'invalidSubscriptionConfirmation',
      });
    }
  });

  it('refuses a confirmation link once it expired, and the address stays pending', async () => {
    const address = 'late@example.com';
    expect((await env.post('/subscriptions', subscription(address))).statusCode).toBe(202);
    const link = env.query(env.linkIn(await env.mailTo(address, /Confirm/), '/newsletter/confirm'));
    env.clock.now += 48 * HOUR;
    const res = await env.post('/subscriptions/confirm', link);
    expect(res.json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidSubscriptionConfirmation',
    });
    expect((await env.row(address))?.status).toBe('pending');
    // A newer link, sent just before the first expired, still works.
    env.clock.now -= HOUR;
    const before = env.smtp.messages.length;
    expect((await env.post('/subscriptions', subscription(address))).statusCode).toBe(202);
    const newer = env.query(
      env.linkIn(await env.mailTo(address, /Confirm/, before), '/newsletter/confirm'),
    );
    expect(newer.token).not.toBe(link.token);
    env.clock.now += HOUR;
    expect((await env.post('/subscriptions/confirm', link)).statusCode).toBe(400);
    expect((await env.post('/subscriptions/confirm', newer)).json()).toEqual({
      status: 'confirmed',
    });
  });

  it('writes the confirmation in the language of Accept-Language when the body names none', async () => {
    const res = await env.call({
      url: '/subscriptions',
      payload: subscription('lingua@example.com'),
      headers: { 'accept-language': 'en-US,en;q=0.9,it;q=0.8' },
    });
    expect(res.statusCode).toBe(202);
    expect((await env.mailTo('lingua@example.com', /./)).subject).toMatch(/^Conferma/);
    expect((await env.row('lingua@example.com'))?.locale).toBe('it');
  });

  it('answers cannotUnsubscribe for an address with no subscription', async () => {
    const email = 'nobody@example.com';
    const res = await env.post('/subscriptions/unsubscribe', {
      email,
      token: unsubscribeToken(env.server.config.secret, email),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, errorCode: 'cannotUnsubscribe' });
    expect(await env.row(email)).toBeUndefined();
  });

  describe('bad input: 400 with its errorCode, nothing written', () => {
    const email = 'victim@example.com';
    const token = () => unsubscribeToken(env.server.config.secret, email);
    const cases: [string, () => Parameters<NewsletterEnv['call']>[0], string][] = [
      [
        'an address that is not one',
        () => ({ url: '/subscriptions', payload: subscription('victim@') }),
        'invalidEmail',
      ],
      ['no address', () => ({ url: '/subscriptions', payload: subscription('') }), 'invalidInput'],
      ['no versions', () => ({ url: '/subscriptions', payload: { email } }), 'termsRequired'],
      [
        'an old terms version',
        () => ({
          url: '/subscriptions',
          payload: subscription(email, { termsVersion: '2024-01-01' }),
        }),
        'termsRequired',
      ],
      [
        'another privacy version',
        () => ({
          url: '/subscriptions',
          payload: subscription(email, { privacyVersion: 'latest' }),
        }),
        'termsRequired',
      ],
      [
        'a NUL in the address',
        () => ({ url: '/subscriptions', payload: subscription(`${email}\u0000`) }),
        'invalidInput',
      ],
      [
        'a NUL in a version',
        () => ({
          url: '/subscriptions',
          payload: subscription(email, { termsVersion: '2025-03-05\u0000' }),
        }),
        'invalidInput',
      ],
      [
        'an unknown language',
        () => ({ url: '/subscriptions', payload: subscription(email, { locale: 'fr' }) }),
        'invalidInput',
      ],
      [
        'a body that is not an object',
        () => ({
          url: '/subscriptions',
          payload: '"x"',
          headers: { 'content-type': 'application/json' },
        }),
        'invalidInput',
      ],
      [
        'a wrong confirmation token',
        () => ({ url: '/subscriptions/confirm', payload: { email, token: token() } }),
        'invalidSubscriptionConfirmation',
      ],
      [
        'a confirmation without token',
        () => ({ url: '/subscriptions/confirm', payload: { email } }),
        'invalidSubscriptionConfirmation',
      ],
      [
        'a confirmation with a bad address',
        () => ({ url: '/subscriptions/confirm', payload: { email: 'x', token: 't' } }),
        'invalidSubscriptionConfirmation',
      ],
      [
        'a wrong unsubscribe token',
        () => ({
          url: '/subscriptions/unsubscribe',
          payload: { email, token: `${token().slice(0, -2)}AA` },
        }),
        'invalidUnsubscribe',
      ],
      [
        "another address's unsubscribe token",
        () => ({
          url: '/subscriptions/unsubscribe',
          payload: { email, token: unsubscribeToken(env.server.config.secret, 'zoe@example.com') },
        }),
        'invalidUnsubscribe',
      ],
      [
        'an unsubscribe without token',
        () => ({ url: '/subscriptions/unsubscribe', payload: { email } }),
        'invalidUnsubscribe',
      ],
      [
        'a NUL in the unsubscribe token',
        () => ({
          url: '/subscriptions/unsubscribe',
          payload: { email, token: `${token()}\u0000` },
        }),
        'invalidInput',
      ],
      [
        'a one-click POST without the query',
        () => ({
          url: '/subscriptions/unsubscribe',
          payload: 'List-Unsubscribe=One-Click',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        'invalidUnsubscribe',
      ],
      [
        'a form body that is not the one-click one',
        () => ({
          url: `/subscriptions/unsubscribe?email=${email}&token=${token()}`,
          payload: 'List-Unsubscribe=Yes',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        'invalidRequest',
      ],
    ];

    it.each(cases)('%s', async (_name, request, errorCode) => {
      const before = (await mailJobs()).length;
      const res = await env.call(request());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, errorCode });
      expect(await env.row(email)).toBeUndefined();
      expect(await mailJobs()).toHaveLength(before);
    });

    it('takes form bodies on the one-click route only', async () => {
      const res = await env.call({
        url: '/subscriptions',
        payload: `email=${email}&termsVersion=2025-03-05&privacyVersion=2025-03-05`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode).toBe(415);
      expect(await env.row(email)).toBeUndefined();
    });
  });

  it('limits each client address: 10 subscribe requests a minute', async () => {
    const ip = '10.250.0.1';
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await env.call({
        url: '/subscriptions',
        payload: subscription(`burst${i}@example.com`),
        ip,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array<number>(10).fill(202));
    const refused = await env.call({
      url: '/subscriptions',
      payload: subscription('burst@example.com'),
      ip,
    });
    expect(refused.json()).toMatchObject({ statusCode: 429, errorCode: 'tooManyRequests' });
    expect(await env.row('burst@example.com')).toBeUndefined();
    // Another address is not held back.
    expect((await env.post('/subscriptions', subscription('burst@example.com'))).statusCode).toBe(
      202,
    );
  });

  it('documents the routes in the OpenAPI document', async () => {
    const doc = (await env.server.app.inject({ url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    expect(Object.keys(doc.paths['/subscriptions']?.post?.responses ?? {})).toContain('202');
    expect(doc.paths['/subscriptions/confirm']?.post).toBeDefined();
    expect(doc.paths['/subscriptions/unsubscribe']?.post).toBeDefined();
  });
});
