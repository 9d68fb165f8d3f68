import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpCapture, type SmtpCapture } from '../../test/helpers/smtp-capture.js';
import { createMailer, messageIdHeader } from './mailer.js';
import { renderMail } from './templates.js';

const FROM = 'Raccolta <no-reply@raccolta.test>';
const LINK = 'https://app.example/auth/verify?email=anna%40example.com&code=123456';

/** A pino logger whose output lines the test can read. */
function recordingLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  return {
    logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    lines,
  };
}

describe('mailer', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'raccolta-mail-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('console transport', () => {
    it('writes the message as an .eml file and prints recipient, subject and links', async () => {
      const { logger, lines } = recordingLogger();
      const mailer = createMailer({ transport: 'console', dir, from: FROM }, logger);
      await mailer.verify();
      const mail = renderMail('verifyEmail', 'en', { link: LINK });
      await mailer.send({ to: 'anna@example.com', ...mail, messageId: 'mail-job-1' });

      expect(readdirSync(dir)).toEqual(['mail-job-1.eml']);
      const eml = readFileSync(path.join(dir, 'mail-job-1.eml'), 'utf8');
      expect(eml).toMatch(/^Subject: Confirm your e-mail address$/m);
      expect(eml).toMatch(/^To: anna@example\.com$/m);
      expect(eml).toMatch(/^Message-ID: <mail-job-1@raccolta\.test>$/m);
      expect(eml).toContain('Content-Type: text/html');

      const printed = lines.join('');
      expect(printed).toContain('anna@example.com');
      expect(printed).toContain('Confirm your e-mail address');
      expect(printed).toContain(LINK);

      // A retry of the same job rewrites its file rather than adding a second one.
      await mailer.send({ to: 'anna@example.com', ...mail, messageId: 'mail-job-1' });
      expect(readdirSync(dir)).toEqual(['mail-job-1.eml']);
      mailer.close();
    });
  });

  describe('smtp transport', () => {
    let capture: SmtpCapture;

    beforeEach(async () => {
      capture = await startSmtpCapture();
    });
    afterEach(async () => {
      await capture.close();
    });

    it('delivers to the SMTP server with recipient, subject, both parts and a stable Message-ID', async () => {
      const mailer = createMailer(
        { transport: 'smtp', url: capture.url, dir, from: FROM },
        pino({ level: 'silent' }),
      );
      await mailer.verify();
      const link = 'https://app.example/teams/t1/downloads/d1/download';
      const mail = renderMail('downloadReady', 'it', { collectionName: 'Gita di primavera', link });
      await mailer.send({ to: 'marta@example.com', ...mail, messageId: 'mail-job-2' });

      const got = await capture.waitFor((m) => m.to.includes('marta@example.com'));
      expect(got.from).toBe('no-reply@raccolta.test');
      expect(got.subject).toBe('Il download di «Gita di primavera» è pronto');
      expect(got.messageId).toBe('<mail-job-2@raccolta.test>');
      expect(got.text).toContain(`\n${link}\n`);
      expect(got.html).toContain(`href="${link}"`);
      expect(got.text).toContain(
        "L'archivio della raccolta «Gita di primavera» che hai richiesto è pronto",
      );
      mailer.close();
    });

    it('sends the one-click List-Unsubscribe headers of a newsletter e-mail, unfolded', async () => {
      const mailer = createMailer(
        { transport: 'smtp', url: capture.url, dir, from: FROM },
        pino({ level: 'silent' }),
      );
      const oneClick = `https://app.example/api/subscriptions/unsubscribe?email=a.long.address.for.folding%40example.com&token=${'x'.repeat(43)}`;
      const mail = renderMail('newsletterWelcome', 'en', {
        unsubscribe: { page: 'https://app.example/unsubscribe?email=a%40b.it&token=t', oneClick },
      });
      await mailer.send({ to: 'news@example.com', ...mail, messageId: 'mail-job-3' });
      const got = await capture.waitFor((m) => m.to.includes('news@example.com'));
      expect(got.headers.get('list-unsubscribe')).toBe(`<${oneClick}>`);
      expect(got.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(got.raw).toContain(`List-Unsubscribe: <${oneClick}>\r\n`);
      mailer.close();
    });

    it('rejects when the server refuses the recipient', async () => {
      capture.rejectRecipients(() => ({ code: 550, message: 'No such user' }));
      const mailer = createMailer(
        { transport: 'smtp', url: capture.url, dir, from: FROM },
        pino({ level: 'silent' }),
      );
      const mail = renderMail('resetPassword', 'en', { link: LINK });
      await expect(mailer.send({ to: 'ghost@example.com', ...mail })).rejects.toThrow(
        /No such user/,
      );
      expect(capture.messages).toHaveLength(0);
      mailer.close();
    });
  });

  it('qualifies a bare message id with the sender domain and keeps a full one', () => {
    expect(messageIdHeader('mail-abc', FROM)).toBe('<mail-abc@raccolta.test>');
    expect(messageIdHeader('<x@y.z>', FROM)).toBe('<x@y.z>');
    expect(messageIdHeader('a b', 'no domain')).toBe('<a_b@raccolta.local>');
  });
});
