import type {
  CreateUploadLink,
  UpdateUploadLink,
  UploadLink,
  UploadLinkListResponse,
} from '@raccolta/contracts';
import { createUploadLinkSchema, updateUploadLinkSchema } from '@raccolta/contracts';
import type { z } from 'zod';
import { requireAccess, type CollectionAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import { hashPassword } from '../auth/passwords.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { isUuid, newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { isTypeAllowed } from '../files/sniff.js';
import type { UserRow } from '../users/users.repository.js';
import { decryptLinkToken, newLinkToken } from './link-tokens.js';
import {
  deleteLink,
  findLinkInCollection,
  insertLink,
  linkFileCounts,
  listCollectionLinks,
  updateLink,
  type UploadLinkRow,
} from './links.repository.js';
import { guestPageUrl, presentLink } from './links.presenter.js';

/**
 * A collection's upload links, for those who manage them (contracts' canManageUploadLinks:
 * owners, admins, and the collection's creator where §6 lets them change it).
 */

type Deps = Pick<AppContext, 'db' | 'config' | 'clock'>;

function manageable(
  ctx: Deps,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  db: Db = ctx.db,
): Promise<CollectionAccess> {
  return requireAccess(
    ctx,
    actor,
    { team: teamRef, collection: collectionId },
    can.manageUploadLinks,
    { db },
  );
}

/** Each accepted type within the server's allowed types (UPLOAD_ALLOWED_TYPES). */
function checkAcceptedTypes(ctx: Deps, types: readonly string[]): void {
  const allowed = ctx.config.files.allowedTypes;
  const outside = types.filter((type) => !isTypeAllowed(type, allowed));
  if (outside.length > 0) {
    throw new AppError('invalidInput', {
      message: `Not among the allowed types (${allowed.join(', ')}): ${outside.join(', ')}`,
    });
  }
}

function parseTime(ctx: Deps, value: string): number {
  const ms = Date.parse(value);
  if (ms <= ctx.clock()) {
    throw new AppError('invalidInput', { message: 'expiresAt must be in the future' });
  }
  return ms;
}

async function present(ctx: Deps, links: UploadLinkRow[]): Promise<UploadLink[]> {
  const counts = await linkFileCounts(
    ctx.db,
    links.map((l) => l.id),
  );
  return links.map((link) =>
    presentLink(link, {
      url: guestPageUrl(ctx.config.publicUrl, decryptLinkToken(ctx.config.secret, link.token_enc)),
      files: counts.get(link.id)?.files ?? 0,
      bytes: counts.get(link.id)?.bytes ?? 0,
    }),
  );
}

async function presentOne(ctx: Deps, link: UploadLinkRow): Promise<UploadLink> {
  const [presented] = await present(ctx, [link]);
  if (!presented) throw new Error('a presented link went missing');
  return presented;
}

export async function createUploadLink(
  ctx: Deps,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  input: z.output<typeof createUploadLinkSchema>,
): Promise<UploadLink> {
  const access = await manageable(ctx, actor, teamRef, collectionId);
  const acceptedTypes = input.acceptedTypes ?? [...ctx.config.files.allowedTypes];
  checkAcceptedTypes(ctx, acceptedTypes);
  const expiresAt = input.expiresAt === undefined ? null : parseTime(ctx, input.expiresAt);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const token = newLinkToken(ctx.config.secret);
  const now = ctx.clock();
  const row: UploadLinkRow = {
    id: newId(),
    team_id: access.team.id,
    collection_id: access.collection.id,
    token_hash: token.hash,
    token_enc: token.encrypted,
    label: input.label || null,
    password_hash: passwordHash,
    expires_at: expiresAt,
    max_files: input.maxFiles ?? null,
    max_bytes: input.maxBytes ?? null,
    accepted_types: JSON.stringify(acceptedTypes),
    require_name: input.requireName ? 1 : 0,
    require_email: input.requireEmail ? 1 : 0,
    enabled: 1,
    reserved_files: 0,
    reserved_bytes: 0,
    created_at: now,
    created_by: actor.id,
    updated_at: now,
  };
  await insertLink(ctx.db, row);
  return presentOne(ctx, row);
}

export type { CreateUploadLink, UpdateUploadLink };

export async function listUploadLinks(
  ctx: Deps,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<UploadLinkListResponse> {
  const access = await manageable(ctx, actor, teamRef, collectionId);
  return { links: await present(ctx, await listCollectionLinks(ctx.db, access.collection.id)) };
}

async function linkOf(db: Db, access: CollectionAccess, linkId: string): Promise<UploadLinkRow> {
  const link = isUuid(linkId)
    ? await findLinkInCollection(db, access.collection.id, linkId)
    : undefined;
  if (!link) throw new AppError('notFound');
  return link;
}

export async function updateUploadLink(
  ctx: Deps,
  actor: UserRow,
  target: { teamRef: string; collectionId: string; linkId: string },
  input: z.output<typeof updateUploadLinkSchema>,
): Promise<UploadLink> {
  if (input.acceptedTypes) checkAcceptedTypes(ctx, input.acceptedTypes);
  const changes: Partial<UploadLinkRow> = { updated_at: ctx.clock() };
  if (input.label !== undefined) changes.label = input.label || null;
  if (input.expiresAt !== undefined) {
    changes.expires_at = input.expiresAt === null ? null : parseTime(ctx, input.expiresAt);
  }
  if (input.maxFiles !== undefined) changes.max_files = input.maxFiles;
  if (input.maxBytes !== undefined) changes.max_bytes = input.maxBytes;
  if (input.acceptedTypes !== undefined) {
    changes.accepted_types = JSON.stringify(input.acceptedTypes);
  }
  if (input.requireName !== undefined) changes.require_name = input.requireName ? 1 : 0;
  if (input.requireEmail !== undefined) changes.require_email = input.requireEmail ? 1 : 0;
  if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;
  if (input.password !== undefined) {
    changes.password_hash = input.password === null ? null : await hashPassword(input.password);
  }
  const link = await ctx.db.transaction().execute(async (trx) => {
    const access = await manageable(ctx, actor, target.teamRef, target.collectionId, trx);
    const current = await linkOf(trx, access, target.linkId);
    await updateLink(trx, current.id, changes);
    return { ...current, ...changes };
  });
  return presentOne(ctx, link);
}

export async function deleteUploadLink(
  ctx: Deps,
  actor: UserRow,
  target: { teamRef: string; collectionId: string; linkId: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const access = await manageable(ctx, actor, target.teamRef, target.collectionId, trx);
    const link = await linkOf(trx, access, target.linkId);
    if (!(await deleteLink(trx, link.id))) throw new AppError('notFound');
  });
}
