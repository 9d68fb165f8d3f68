import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { findLinkById, type UploadLinkRow } from '../links/links.repository.js';
import { findUserById } from '../users/users.repository.js';
import { requireAccess, type CollectionAccess } from './access.js';
import { can } from './rules.js';

/**
 * A guest acts through an upload link, and a link acts for the member who made it: a guest may
 * add files where the link's creator still may (spec §6, can.uploadFile), on every request. A
 * link that is unknown, disabled or expired, or whose creator lost that right (left the team,
 * demoted, the collection gone), is answered uploadLinkNotFound, the same for each, so nothing
 * about the link or the team can be told apart. The team's second-factor requirement concerns its
 * members' sign-ins, not a link's guests, so it is not asked here.
 */
export interface GuestAccess {
  link: UploadLinkRow;
  /** The link creator's access to the collection, which the guest's uploads go through. */
  access: CollectionAccess;
}

/** The one answer for a link that is unknown, disabled, expired or no longer usable. */
export function linkNotFound(): AppError {
  return new AppError('uploadLinkNotFound', {
    message: 'This upload link does not exist, or it is no longer open',
  });
}

export function linkIsOpen(link: UploadLinkRow, now: number): boolean {
  return link.enabled === 1 && (link.expires_at === null || link.expires_at > now);
}

export async function requireGuestLink(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  linkOrId: string | UploadLinkRow,
  options: { db?: Db } = {},
): Promise<GuestAccess> {
  const db = options.db ?? ctx.db;
  const link = typeof linkOrId === 'string' ? await findLinkById(db, linkOrId) : linkOrId;
  if (!link || !linkIsOpen(link, ctx.clock())) throw linkNotFound();
  const creator = await findUserById(db, link.created_by);
  if (!creator) throw linkNotFound();
  try {
    const access = await requireAccess(
      ctx,
      creator,
      { team: link.team_id, collection: link.collection_id },
      can.uploadFile,
      { db, secondFactorExempt: true },
    );
    return { link, access };
  } catch (error) {
    if (error instanceof AppError) throw linkNotFound();
    throw error;
  }
}
