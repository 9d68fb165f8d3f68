import { LEGAL_VERSIONS } from '@raccolta/contracts';
import type { ServerOptions } from '../../src/server.js';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

export const HOUR = 60 * 60_000;
export const DAY = 24 * HOUR;

/** A subscribe body with the versions in force. */
export const subscription = (email: string, extra: object = {}) => ({
  email,
  termsVersion: LEGAL_VERSIONS.terms,
  privacyVersion: LEGAL_VERSIONS.privacy,
  ...extra,
});

export interface Call {
  url: string;
  method?: 'GET' | 'POST';
  payload?: string | object;
  headers?: Record<string, string>;
  /** The client address; a fresh one per call unless given. */
  ip?: string;
}

/**
 * The app with real SMTP to a capture and, unless `worker: false`, the worker sending it, on a
 * clock the test moves; helpers call the newsletter routes and read the links of the mails.
 */
export async function startNewsletterEnv(options: ServerOptions = {}) {
  const smtp: SmtpCapture = await startSmtpCapture();
  const clock = { now: Date.now() };
  const server: TestServer = await startTestServer(
    { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url },
    { worker: true, clock: () => clock.now, ...options },
  );
  let ip = 0;

  const call = ({ url, method = 'POST', payload, headers = {}, ip: address }: Call) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      // A fresh address per call: the newsletter routes have tight per-address limits.
      remoteAddress: address ?? `10.3.${++ip >> 8}.${ip & 255}`,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
  const post = (url: string, payload: object) => call({ url, payload });

  /** The newest mail to `email` whose subject matches, once it arrives. */
  const mailTo = (email: string, subject: RegExp, after = 0) =>
    smtp.waitFor(
      (m) => m.to.includes(email) && subject.test(m.subject) && smtp.messages.indexOf(m) >= after,
    );

  /** The first link of a mail's text part whose path is `path`. */
  const linkIn = (mail: CapturedMail, path: string): URL => {
    const link = mail.text
      .match(/https?:\/\/\S+/g)
      ?.map((l) => new URL(l))
      .find((l) => l.pathname === path);
    if (!link) throw new Error(`no ${path} link in ${mail.text}`);
    return link;
  };

  /** `{ email, token }` of a link's query. */
  const query = (link: URL) => ({
    email: link.searchParams.get('email') ?? '',
    token: link.searchParams.get('token') ?? '',
  });

  const row = (email: string) =>
    server.ctx.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();

  /** Subscribes and confirms through the API; answers the welcome mail. */
  async function subscribed(email: string, locale: 'en' | 'it' = 'en') {
    const before = smtp.messages.length;
    const res = await post('/subscriptions', subscription(email, { locale }));
    if (res.statusCode !== 202) throw new Error(`subscribe answered ${res.statusCode}`);
    const confirm = linkIn(await mailTo(email, /./, before), '/newsletter/confirm');
    const done = await post('/subscriptions/confirm', query(confirm));
    if (done.statusCode !== 200) throw new Error(`confirm answered ${done.statusCode}`);
    return mailTo(email, /Welcome|benvenuto/, before);
  }

  return {
    smtp,
    server,
    clock,
    call,
    post,
    mailTo,
    linkIn,
    query,
    row,
    subscribed,
    async close() {
      await server.close();
      await smtp.close();
    },
  };
}

export type NewsletterEnv = Awaited<ReturnType<typeof startNewsletterEnv>>;
