import type { AssignableRole, Locale } from '@raccolta/contracts';
import { webLink } from '../auth/links.js';
import { createCode } from '../auth/one-time-codes.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { deleteInvitationCodesOf, findMailJob } from './invitations.repository.js';

/** How long an invite waits for the mail job's first attempt before answering without knowing. */
const MAIL_WAIT_MS = 4000;
const MAIL_POLL_MS = 50;

/** The code's data binds it to one team: a user may hold invitations to several teams at once. */
function codeData(teamId: string): string {
  return JSON.stringify({ teamId });
}

export function invitationTeamId(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { teamId } = data as { teamId?: unknown };
  return typeof teamId === 'string' ? teamId : undefined;
}

/**
 * Deletes the user's invitation links to this team (a resend replaces them, a removal cancels
 * them), so an old link answers invitationNotFound rather than pretending it was handled.
 */
export async function deleteInvitationCodes(db: Db, userId: string, teamId: string): Promise<void> {
  await deleteInvitationCodesOf(db, userId, codeData(teamId));
}

export interface InvitationMail {
  team: { id: string; name: string };
  userId: string;
  email: string;
  locale: Locale;
  role: AssignableRole;
  inviterName: string;
  expiresAt: number;
}

/**
 * A fresh single-use token (older ones of this team deleted) and the invitation mail carrying its
 * accept and reject links, enqueued in `trx`. Returns the mail job's id.
 */
export async function issueInvitation(
  ctx: AppContext,
  trx: Db,
  input: InvitationMail,
  now: number,
): Promise<string> {
  await deleteInvitationCodes(trx, input.userId, input.team.id);
  const key = await createCode(
    trx,
    {
      userId: input.userId,
      purpose: 'invitation',
      ttlMs: input.expiresAt - now,
      data: { teamId: input.team.id },
    },
    now,
  );
  const base = `/teams/${input.team.id}/invitations`;
  return enqueueMail(
    trx,
    {
      to: input.email,
      locale: input.locale,
      template: 'invitation',
      vars: {
        teamName: input.team.name,
        inviterName: input.inviterName,
        role: input.role,
        acceptLink: webLink(ctx.config, `${base}/accept`, { key }),
        rejectLink: webLink(ctx.config, `${base}/reject`, { key }),
        expiresAt: input.expiresAt,
      },
    },
    ctx.clock,
  );
}

export type MailOutcome = 'sent' | 'failed' | 'unknown';

/**
 * Waits briefly for the mail job's first attempt, so the inviter learns at once when the mail
 * server refused the address (cannotSendInvitationEmail). Mail still leaves only from the job,
 * which keeps retrying; with no worker running the answer is 'unknown' after the wait.
 */
export async function awaitMailAttempt(ctx: AppContext, jobId: string): Promise<MailOutcome> {
  const deadline = performance.now() + MAIL_WAIT_MS;
  for (;;) {
    const job = await findMailJob(ctx.db, jobId);
    if (job?.status === 'succeeded') return 'sent';
    if (job?.last_error != null) return 'failed';
    if (!job || performance.now() >= deadline) return 'unknown';
    await new Promise((resolve) => setTimeout(resolve, MAIL_POLL_MS));
  }
}
