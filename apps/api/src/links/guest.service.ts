import {
  GUEST_DELETE_WINDOW_MS,
  GUEST_NAME_MAX_LENGTH,
  EMAIL_PATTERN,
  isPlainText,
  isVisibleText,
  UPLOAD_LINK_TOKEN_PATTERN,
  type GuestFileListResponse,
  type GuestSession,
  type OpenUploadLink,
} from '@raccolta/contracts';
import { requireGuestLink, type GuestAccess } from '../access/guest-access.js';
import { verifyPassword } from '../auth/passwords.js';
import { release, reserve } from '../db/rate-limits.js';
import type { AppContext } from '../context.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { deleteFileRow, moveCollection } from '../files/files.repository.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { deleteQueuedObjectsJob } from '../storage/delete-queued.job.js';
import { objectKeysOf, queueObjectDeletions } from '../trash/trash.repository.js';
import { linkTokenHash, readGuestToken, signGuestToken, type GuestClaims } from './link-tokens.js';
import { findLinkByTokenHash, listGuestFiles, releaseOnLink } from './links.repository.js';
import { presentGuestFile, presentLinkInfo } from './links.presenter.js';

/** How long a guest token works; the guest page opens the link again for a new one. */
export const GUEST_TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
/** Failed openings (unknown or closed link, wrong password) per client address and window. */
export const GUEST_OPEN_FAILURES_PER_ADDRESS = 10;
/** Wrong passwords per link and window, from anywhere. */
export const GUEST_PASSWORD_FAILURES_PER_LINK = 20;
export const GUEST_FAILURE_WINDOW_MS = 15 * 60 * 1000;

type Deps = Pick<AppContext, 'db' | 'config' | 'clock'>;

/**
 * POST /guest/links/{token}/open. An unknown, disabled or expired token answers
 * uploadLinkNotFound, the same for each. Failures count per client address, wrong passwords per
 * link too, before the password is checked (at most the limit's number of checks in a burst); an
 * opening that succeeds gives the address its attempt back.
 */
export async function openUploadLink(
  ctx: Deps,
  token: string,
  input: OpenUploadLink,
  clientIp: string,
): Promise<GuestSession> {
  const now = ctx.clock();
  const ipKey = `upload-link:ip:${clientIp}`;
  if (
    !(await reserve(ctx.db, ipKey, GUEST_OPEN_FAILURES_PER_ADDRESS, GUEST_FAILURE_WINDOW_MS, now))
  ) {
    throw new AppError('tooManyRequests');
  }
  const link = UPLOAD_LINK_TOKEN_PATTERN.test(token)
    ? await findLinkByTokenHash(ctx.db, linkTokenHash(token))
    : undefined;
  const guest = await requireGuestLink(ctx, link?.id ?? '00000000-0000-0000-0000-000000000000');
  if (guest.link.password_hash !== null) {
    if (input.password === undefined) {
      await release(ctx.db, ipKey, now);
      throw new AppError('uploadLinkPasswordRequired');
    }
    const linkKey = `upload-link:password:${guest.link.id}`;
    if (
      !(await reserve(
        ctx.db,
        linkKey,
        GUEST_PASSWORD_FAILURES_PER_LINK,
        GUEST_FAILURE_WINDOW_MS,
        now,
      ))
    ) {
      throw new AppError('tooManyRequests');
    }
    if (!(await verifyPassword(guest.link.password_hash, input.password))) {
      throw new AppError('wrongUploadLinkPassword');
    }
    await release(ctx.db, linkKey, now);
  }
  await release(ctx.db, ipKey, now);
  const expiresAt = now + GUEST_TOKEN_TTL_MS;
  const guestId = input.guestId ?? newId();
  return {
    guestToken: signGuestToken(ctx.config.secret, { linkId: guest.link.id, guestId, expiresAt }),
    guestId,
    expiresAt: new Date(expiresAt).toISOString(),
    link: presentLinkInfo(guest.link, guest.access, ctx.config.files.maxFileBytes),
  };
}

/** The claims of the guest token in `Authorization: Bearer …`; anything else is 401. */
export function guestClaimsOf(ctx: Deps, authorization: string | undefined): GuestClaims {
  if (authorization === undefined) throw new AppError('authorizationRequired');
  const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
  const claims =
    scheme?.toLowerCase() === 'bearer' && token && rest.length === 0
      ? readGuestToken(ctx.config.secret, token, ctx.clock())
      : null;
  if (!claims) throw new AppError('invalidAuthorization');
  return claims;
}

/**
 * An onRequest hook of the guest routes: the guest token is checked before the request's
 * parameters and body, as the members' routes check their access token.
 */
export function authenticateGuest(ctx: Deps) {
  // eslint-disable-next-line @typescript-eslint/require-await -- Fastify hooks are async or take done
  return async (request: { headers: { authorization?: string | undefined } }) => {
    guestClaimsOf(ctx, request.headers.authorization);
  };
}

/** The guest's link, still open, on every request the guest makes. */
export function requireGuest(ctx: Deps, claims: GuestClaims): Promise<GuestAccess> {
  return requireGuestLink(ctx, claims.linkId);
}

/** What a guest gives with each upload, checked against what the link asks for. */
export interface GuestDetails {
  name: string | null;
  email: string | null;
}

export function guestDetails(
  guest: GuestAccess,
  metadata: { guestName?: string | null; guestEmail?: string | null },
): GuestDetails {
  const name = metadata.guestName?.trim() ?? '';
  const email = metadata.guestEmail?.trim() ?? '';
  if (name.length > GUEST_NAME_MAX_LENGTH || !isPlainText(name)) {
    throw new AppError('invalidInput', { message: 'guestName is not a valid name' });
  }
  const visibleName = isVisibleText(name) ? name : null;
  if (guest.link.require_name === 1 && visibleName === null) {
    throw new AppError('invalidInput', { message: 'This link asks for the guestName metadata' });
  }
  if (email !== '' && !EMAIL_PATTERN.test(email)) throw new AppError('invalidEmail');
  if (guest.link.require_email === 1 && email === '') throw new AppError('emailRequired');
  return { name: visibleName, email: email === '' ? null : email };
}

export async function listOwnGuestFiles(
  ctx: Deps,
  claims: GuestClaims,
): Promise<GuestFileListResponse> {
  const guest = await requireGuest(ctx, claims);
  const rows = await listGuestFiles(ctx.db, guest.link.id, claims.guestId);
  return { files: rows.map(presentGuestFile) };
}

/**
 * A guest takes back a file they sent through this link, within GUEST_DELETE_WINDOW_MS of its
 * arrival: gone for good (not to the trash: it was never the team's to keep), its objects queued
 * for deletion, its place on the link given back. Anyone else's file, or an older one, is 404.
 */
export async function deleteOwnGuestFile(
  ctx: Deps,
  claims: GuestClaims,
  fileId: string,
): Promise<void> {
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const guest = await requireGuestLink(ctx, claims.linkId, { db: trx });
    const file = await trx
      .selectFrom('files')
      .selectAll()
      .where('id', '=', fileId)
      .where('link_id', '=', guest.link.id)
      .where('guest_id', '=', claims.guestId)
      .where('created_at', '>', now - GUEST_DELETE_WINDOW_MS)
      .executeTakeFirst();
    if (!file) throw new AppError('notFound');
    const scope = { teamId: file.team_id, collectionId: file.collection_id };
    const row = await deleteFileRow(trx, scope, file.id);
    if (!row) throw new AppError('notFound');
    await moveCollection(trx, scope, { delta: -1, now, actorId: guest.link.created_by });
    await releaseOnLink(trx, guest.link.id, row.size);
    await queueObjectDeletions(trx, objectKeysOf(row), now);
    await enqueueJob(trx, deleteQueuedObjectsJob, { payload: {} }, ctx.clock);
  });
}
