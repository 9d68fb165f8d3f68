import { expect } from '@playwright/test';

export interface Mail {
  to: string[];
  subject: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
  html: string;
}

/** This worker's mailbox endpoint (support/servers.ts sets the port when the worker starts). */
const base = () => `http://127.0.0.1:${process.env.E2E_MAILBOX_PORT ?? ''}`;

/** Every mail to `to` captured so far, oldest first. */
export async function mailsTo(to: string): Promise<Mail[]> {
  const res = await fetch(`${base()}/messages?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { messages: Mail[] }).messages;
}

/** Waits for the newest mail to `to` (matching `subject` when given) captured by the e2e SMTP server. */
export async function waitForMail(to: string, subject?: RegExp, timeoutMs = 20_000): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${base()}/messages?to=${encodeURIComponent(to)}`);
        const { messages } = (await res.json()) as { messages: Mail[] };
        found = messages.filter((m) => !subject || subject.test(m.subject)).at(-1);
        return found !== undefined;
      },
      { timeout: timeoutMs, intervals: [200, 500, 1000] },
    )
    .toBe(true);
  if (!found) throw new Error(`no mail to ${to}`);
  return found;
}

/** The first link in a mail's text part whose path starts with `path`. */
export function linkIn(mail: Mail, path: string): string {
  const link = mail.text
    .match(/https?:\/\/\S+/g)
    ?.find((l) => new URL(l).pathname.startsWith(path));
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return link;
}
