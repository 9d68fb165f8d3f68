import type { Config } from '../config/config.js';
import type { UsersTable } from '../db/database.js';
import type { JobsDb } from '../jobs/enqueue.js';
import type { Clock } from '../jobs/types.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { deviceParts } from './devices.js';
import { webLink } from './links.js';

/**
 * The account events a user is told about by e-mail. `newDevice`: a sign-in from a device label
 * (sessions.ts, isNewDevice) none of the user's earlier recorded sessions had; `passwordChanged`:
 * a reset or a change of the password; `secondFactorChanged` and `passkeyAdded`: for the second
 * factor and passkeys.
 */
export type SecurityNoticeKind =
  'newDevice' | 'passwordChanged' | 'secondFactorChanged' | 'passkeyAdded';

export interface SecurityNoticeContext {
  config: Config;
  /** The caller's transaction when there is one, so the notice goes if and only if it commits. */
  db: JobsDb;
  clock: Clock;
}

export type SecurityNoticeUser = Pick<UsersTable, 'id' | 'email' | 'kind' | 'locale' | 'nickname'>;

/**
 * E-mails a security notice through the mail job (retried like every mail), in the user's
 * language, with a "This wasn't me?" button to the forgot-password page (the address filled in)
 * and a word on signing out everywhere. Internal members have no e-mail: nothing is sent.
 * Returns whether a mail was queued. `device`: the new device, for `newDevice`.
 */
export async function sendSecurityNotice(
  ctx: SecurityNoticeContext,
  user: SecurityNoticeUser,
  kind: SecurityNoticeKind,
  details: { device?: { userAgent: string | null; label: string } } = {},
): Promise<boolean> {
  if (user.kind !== 'standard' || !user.email) return false;
  const at = ctx.clock();
  const { browser, os } = deviceParts(details.device?.userAgent ?? null);
  await enqueueMail(
    ctx.db,
    {
      to: user.email,
      locale: user.locale === 'it' ? 'it' : 'en',
      template: 'securityNotice',
      vars: {
        kind,
        at,
        resetLink: webLink(ctx.config, '/auth/forgot', { email: user.email }),
        ...(user.nickname ? { name: user.nickname } : {}),
        ...(browser ? { browser: browser.slice(0, 200) } : {}),
        ...(os ? { os: os.slice(0, 200) } : {}),
      },
    },
    ctx.clock,
    // Two sign-ins racing from one new device make one mail.
    kind === 'newDevice'
      ? { dedupeKey: `security:newDevice:${user.id}:${details.device?.label ?? ''}` }
      : {},
  );
  return true;
}
