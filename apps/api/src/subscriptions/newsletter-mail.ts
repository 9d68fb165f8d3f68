import { LOCALES, type Locale } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { newId } from '../db/ids.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { NEWSLETTER_MAX_PARAGRAPHS, NEWSLETTER_PARAGRAPH_MAX_LENGTH } from '../mail/templates.js';
import { unsubscribeLinks } from './subscription-links.js';
import {
  listConfirmedSubscriptions,
  newsletterMailKey,
  type SubscriptionRow,
} from './subscriptions.repository.js';

/** Newsletter e-mails: each carries its recipient's unsubscribe link and List-Unsubscribe headers. */

type Recipient = Pick<SubscriptionRow, 'id' | 'email' | 'locale'>;

const localeOf = (recipient: Recipient): Locale => (recipient.locale === 'it' ? 'it' : 'en');

/** The first newsletter e-mail, queued in the transaction that confirms the subscription. */
export async function enqueueWelcome(
  ctx: AppContext,
  trx: Db,
  recipient: Recipient,
): Promise<void> {
  await enqueueMail(
    trx,
    {
      to: recipient.email,
      locale: localeOf(recipient),
      template: 'newsletterWelcome',
      vars: { unsubscribe: unsubscribeLinks(ctx.config, recipient.email) },
    },
    ctx.clock,
    { dedupeKey: newsletterMailKey(recipient.id, 'welcome') },
  );
}

export interface NewsletterIssue {
  subject: string;
  paragraphs: string[];
}

export class NewsletterIssueError extends Error {}

const SUBJECT_LINE = /^#\s+(.+)$/;
const SUBJECT_MAX_LENGTH = 200;

/**
 * An issue as written in a text file: the first line `# Subject`, then the body in paragraphs
 * separated by blank lines; the lines of a paragraph are joined with a space (as Markdown does).
 * Other Markdown marks are sent as typed.
 */
export function parseIssue(text: string): NewsletterIssue {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== '');
  const subject = SUBJECT_LINE.exec(lines[first]?.trim() ?? '')?.[1]?.trim();
  if (!subject) throw new NewsletterIssueError('The first line must be the subject: # Subject');
  if (subject.length > SUBJECT_MAX_LENGTH)
    throw new NewsletterIssueError(`The subject is longer than ${SUBJECT_MAX_LENGTH} characters`);
  const paragraphs = lines
    .slice(first + 1)
    .join('\n')
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join(' '),
    )
    .filter((paragraph) => paragraph !== '');
  if (paragraphs.length === 0) throw new NewsletterIssueError('The issue has no text');
  if (paragraphs.length > NEWSLETTER_MAX_PARAGRAPHS)
    throw new NewsletterIssueError(`An issue has at most ${NEWSLETTER_MAX_PARAGRAPHS} paragraphs`);
  if (paragraphs.some((p) => p.length > NEWSLETTER_PARAGRAPH_MAX_LENGTH))
    throw new NewsletterIssueError(
      `A paragraph has at most ${NEWSLETTER_PARAGRAPH_MAX_LENGTH} characters`,
    );
  return { subject, paragraphs };
}

/** Recipients queued per transaction. */
const BATCH = 500;

/**
 * Queues one e-mail of the issue per confirmed subscriber, in the subscriber's language when the
 * issue has it (else in the first language given), each with its own unsubscribe link. Whoever
 * unsubscribes before their mail leaves does not get it.
 */
export async function sendNewsletter(
  ctx: AppContext,
  issues: Partial<Record<Locale, NewsletterIssue>>,
): Promise<Record<Locale, number>> {
  const available = LOCALES.flatMap((locale) => {
    const issue = issues[locale];
    return issue ? [{ locale, issue }] : [];
  });
  const [first] = available;
  if (!first) throw new NewsletterIssueError('The issue has no language');
  const pick = (wanted: Locale) => available.find((a) => a.locale === wanted) ?? first;
  const issueId = newId();
  const sent: Record<Locale, number> = { en: 0, it: 0 };
  let after: string | null = null;
  for (;;) {
    const batch = await listConfirmedSubscriptions(ctx.db, after, BATCH);
    if (batch.length === 0) break;
    await ctx.db.transaction().execute(async (trx) => {
      for (const recipient of batch) {
        const { locale, issue } = pick(localeOf(recipient));
        await enqueueMail(
          trx,
          {
            to: recipient.email,
            locale,
            template: 'newsletterIssue',
            vars: { ...issue, unsubscribe: unsubscribeLinks(ctx.config, recipient.email) },
          },
          ctx.clock,
          { dedupeKey: newsletterMailKey(recipient.id, `issue:${issueId}`) },
        );
        sent[locale] += 1;
      }
    });
    after = batch.at(-1)?.id ?? null;
    if (batch.length < BATCH) break;
  }
  return sent;
}
