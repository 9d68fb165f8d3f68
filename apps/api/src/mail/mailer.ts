import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { MailTransportConfig } from '../config/config.js';
import { newId } from '../db/ids.js';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /**
   * A stable unique id, e.g. the sending job's id; it becomes `<id@sender-domain>` unless it is
   * already a full `<…@…>` Message-ID. Without one the transport makes a random id.
   */
  messageId?: string;
  /**
   * A newsletter e-mail's one-click unsubscribe URL: sent as `List-Unsubscribe: <url>` with
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 2369, RFC 8058).
   */
  listUnsubscribe?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Checks the transport can send: the SMTP server answers and accepts the login, or the mail folder is writable. */
  verify(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** Counts each message the transport failed to send (raccolta_mail_send_failures_total). */
  failures?: Pick<Counter<'transport'>, 'inc'>;
}

/** `console` writes each message as an .eml file and logs its links; `smtp` sends through SMTP_URL. */
export function createMailer(
  config: MailTransportConfig,
  logger: Logger,
  options: MailerOptions = {},
): Mailer {
  const log = logger.child({ component: 'mail' });
  const mailer =
    config.transport === 'smtp'
      ? smtpMailer(config.url, config.from, log)
      : consoleMailer(config.dir, config.from, log);
  const { failures } = options;
  if (!failures) return mailer;
  return {
    ...mailer,
    async send(message) {
      try {
        await mailer.send(message);
      } catch (err) {
        failures.inc({ transport: config.transport });
        throw err;
      }
    },
  };
}

/** What both transports hand to nodemailer. */
function mailOptions(message: MailMessage, from: string): SendMailOptions {
  return {
    from,
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
    messageId: message.messageId && messageIdHeader(message.messageId, from),
    ...(message.listUnsubscribe === undefined
      ? {}
      : { headers: listUnsubscribeHeaders(message.listUnsubscribe) }),
  };
}

/**
 * Written as given (`prepared`), because nodemailer would fold a long URL with whitespace inside
 * the angle brackets, which some receivers do not take out again. A URL as `URL` serialises it
 * holds no space or line break, so it cannot add a header.
 */
export function listUnsubscribeHeaders(
  url: string,
): Record<string, { prepared: true; value: string }> {
  const href = new URL(url).href;
  if (!/^https?:\/\/[^\s<>]+$/.test(href)) throw new Error('not a List-Unsubscribe URL');
  return {
    'List-Unsubscribe': { prepared: true, value: `<${href}>` },
    'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
  };
}

function smtpMailer(url: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      const info = await transport.sendMail(mailOptions(message, from));
      logger.info(
        { to: message.to, subject: message.subject, messageId: info.messageId },
        'mail sent',
      );
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}

function consoleMailer(dir: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await transport.sendMail(mailOptions(message, from));
      if (!Buffer.isBuffer(info.message))
        throw new Error('the stream transport did not buffer the message');
      await mkdir(dir, { recursive: true });
      // Named after the Message-ID, so a retried job rewrites its file instead of adding one.
      const file = path.join(dir, `${fileSafe(message.messageId ?? newId())}.eml`);
      const partial = `${file}.${process.pid}.tmp`;
      await writeFile(partial, info.message);
      await rename(partial, file);
      const links = message.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
      logger.info(
        { to: message.to, subject: message.subject, links, file },
        [`mail to ${message.to}: ${message.subject}`, ...links.map((l) => `  ${l}`)].join('\n'),
      );
    },
    async verify() {
      await mkdir(dir, { recursive: true });
    },
    close() {
      // Nothing is held open.
    },
  };
}

/** `<id@domain-of-the-sender>`: a Message-ID needs a domain, and the sender's is the honest one. */
export function messageIdHeader(id: string, from: string): string {
  if (/^<[^<>@\s]+@[^<>@\s]+>$/.test(id)) return id;
  const domain = /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? 'raccolta.local';
  return `<${fileSafe(id)}@${domain}>`;
}

function fileSafe(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_');
}
