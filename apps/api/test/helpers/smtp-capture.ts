import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

export interface CapturedMail {
  /** MAIL FROM of the envelope. */
  from: string;
  /** RCPT TO addresses of the envelope: who the mail was really delivered to. */
  to: string[];
  subject: string;
  messageId: string;
  /** Header names in lower case, values unfolded and with encoded words decoded. */
  headers: Map<string, string>;
  /** Decoded text/plain part, with \n line ends ('' when absent). */
  text: string;
  /** Decoded text/html part ('' when absent). */
  html: string;
  /** The message as received. */
  raw: string;
}

export interface SmtpRejection {
  code: number;
  message: string;
}

export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>`, a value for SMTP_URL. */
  url: string;
  port: number;
  messages: CapturedMail[];
  waitFor(predicate: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  /** Answers RCPT TO with an error whenever `rule` returns one; `null` accepts everything again. */
  rejectRecipients(rule: ((address: string) => SmtpRejection | undefined) | null): void;
  close(): Promise<void>;
}

/** A real SMTP server on a local port (a free one by default) that keeps every message it accepts. */
export async function startSmtpCapture(port = 0): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  let rejectRule: ((address: string) => SmtpRejection | undefined) | null = null;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onRcptTo(address, _session, callback) {
      const rejection = rejectRule?.(address.address);
      if (!rejection) {
        callback();
        return;
      }
      const err: SMTPServerError = new Error(rejection.message);
      err.responseCode = rejection.code;
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelopeFrom = session.envelope.mailFrom;
        messages.push({
          ...parseMessage(raw),
          from: envelopeFrom ? envelopeFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    messages,
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = messages.find(predicate);
          if (!found) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        const wake = (): void => void check();
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        waiters.add(wake);
        check();
      });
    },
    rejectRecipients(rule) {
      rejectRule = rule;
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

type ParsedMessage = Omit<CapturedMail, 'from' | 'to' | 'raw'>;

/** Just enough MIME for the mails we send: nested multiparts, quoted-printable, base64, UTF-8. */
function parseMessage(raw: string): ParsedMessage {
  const { headers, body } = splitEntity(raw);
  const parts = { text: '', html: '' };
  collectParts(headers, body, parts);
  return {
    headers,
    subject: headers.get('subject') ?? '',
    messageId: headers.get('message-id') ?? '',
    text: parts.text,
    html: parts.html,
  };
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  const head = match ? entity.slice(0, match.index) : entity;
  const body = match ? entity.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers.set(
        line.slice(0, colon).trim().toLowerCase(),
        decodeWords(line.slice(colon + 1).trim()),
      );
    }
  }
  return { headers, body };
}

function collectParts(
  headers: Map<string, string>,
  body: string,
  out: { text: string; html: string },
): void {
  const type = headers.get('content-type') ?? 'text/plain';
  if (/^multipart\//i.test(type)) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) return;
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = splitEntity(section.replace(/^\r?\n/, ''));
      collectParts(part.headers, part.body, out);
    }
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit').replace(
    /\r\n/g,
    '\n',
  );
  if (/^text\/plain/i.test(type)) out.text ||= decoded;
  else if (/^text\/html/i.test(type)) out.html ||= decoded;
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body.replace(/=\r?\n/g, '')).toString('utf8');
    default:
      return body;
  }
}

function decodeQuotedPrintable(value: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value.slice(i + 1, i + 3);
    if (value[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(value[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as nodemailer writes non-ASCII headers. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_all, _charset: string, kind: string, text: string) =>
        kind.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64').toString('utf8')
          : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}
