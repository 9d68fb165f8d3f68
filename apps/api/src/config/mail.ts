import path from 'node:path';
import { z } from 'zod';
import { invalid, type Base } from './env.js';

/** How mail leaves: printed with an .eml copy under DATA_DIR/mail, or SMTP. */
export const mailEnv = z.object({
  MAIL_TRANSPORT: z.enum(['console', 'smtp']).default('console'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Raccolta <no-reply@raccolta.local>'),
  MAIL_COPY_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
});

/** How mail leaves: console (an .eml copy in `dir` and a log line) or SMTP. */
export type MailTransportConfig = ReturnType<typeof mailTransport>;

export function mailConfig(e: z.output<typeof mailEnv>, base: Pick<Base, 'dataDir'>) {
  return {
    mail: {
      ...mailTransport(e, path.join(base.dataDir, 'mail')),
      /** How long the console transport's .eml copies are kept before the daily purge. */
      copyMaxAgeMs: e.MAIL_COPY_DAYS * 24 * 60 * 60_000,
    },
  };
}

function mailTransport(e: z.output<typeof mailEnv>, dir: string) {
  if (e.MAIL_TRANSPORT === 'console') {
    const printed = { transport: 'console' as const, dir, from: e.MAIL_FROM };
    return printed;
  }
  if (!e.SMTP_URL) throw invalid('SMTP_URL', 'required when MAIL_TRANSPORT=smtp');
  return { transport: 'smtp' as const, url: e.SMTP_URL, dir, from: e.MAIL_FROM };
}
