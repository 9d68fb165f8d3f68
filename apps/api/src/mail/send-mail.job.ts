import { EMAIL_PATTERN, LOCALES } from '@raccolta/contracts';
import { z } from 'zod';
import { defineJob } from '../jobs/define-job.js';
import { exponentialBackoff } from '../jobs/backoff.js';
import { enqueueJob, type JobsDb } from '../jobs/enqueue.js';
import type { Clock } from '../jobs/types.js';
import type { Mailer } from './mailer.js';
import { mailVarsSchemas, renderMail, type MailTemplate } from './templates.js';

function mailOf<K extends MailTemplate>(template: K) {
  return z.object({
    // The rule the API checks every address by, so no accepted address fails here.
    to: z.string().regex(EMAIL_PATTERN),
    locale: z.enum(LOCALES),
    template: z.literal(template),
    vars: mailVarsSchemas[template],
  });
}

export const sendMailPayloadSchema = z.discriminatedUnion('template', [
  mailOf('verifyEmail'),
  mailOf('resetPassword'),
  mailOf('invitation'),
  mailOf('downloadReady'),
  mailOf('downloadFailed'),
  mailOf('collectionReminder'),
  mailOf('securityNotice'),
  mailOf('subscriptionConfirm'),
  mailOf('newsletterWelcome'),
  mailOf('newsletterIssue'),
  mailOf('digest'),
]);

/** What `enqueueMail` takes: a recipient, a language, a template and that template's variables. */
export type MailInput = z.input<typeof sendMailPayloadSchema>;

export interface SendMailDeps {
  mailer: Mailer;
}

/**
 * The only way mail leaves the application, so a mail is sent if and only if the transaction that
 * wanted it committed, and an SMTP outage delays mail instead of failing requests.
 *
 * Idempotency has a limit here: SMTP cannot tell us whether an earlier attempt was delivered. If
 * the process dies after the server accepted the message and before the job is marked done, the
 * retry sends it again. The Message-ID is derived from the job id, so both copies carry the same
 * Message-ID and mail systems that de-duplicate on it (many do) show one message; the console
 * transport simply rewrites the same file.
 */
export const sendMailJob = defineJob({
  queue: 'mail.send',
  schema: sendMailPayloadSchema,
  maxAttempts: 10,
  // 10 s, 20 s, 40 s … capped at 30 min: about an hour and a quarter of SMTP outage is ridden out.
  backoff: exponentialBackoff({ baseMs: 10_000, maxMs: 30 * 60_000 }),
  handler: async ({ mailer }: SendMailDeps, mail, job) => {
    const rendered = renderMail(mail.template, mail.locale, mail.vars);
    await mailer.send({ to: mail.to, ...rendered, messageId: `mail-${job.id}` });
  },
});

/**
 * Enqueues a mail inside the caller's transaction; returns the job id. A `dedupeKey` keeps one
 * unsent mail per key, and names the job for whoever must find it again (the newsletter's purge).
 */
export function enqueueMail(
  db: JobsDb,
  input: MailInput,
  clock: Clock,
  options: { dedupeKey?: string } = {},
): Promise<string> {
  return enqueueJob(db, sendMailJob, { payload: input, dedupeKey: options.dedupeKey }, clock);
}
