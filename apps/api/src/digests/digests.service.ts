import {
  canReceiveDigest,
  DIGEST_INTERVAL_MS,
  DIGEST_MAX_THUMBNAILS,
  effectiveDigestFrequency,
  LOCALES,
  type DigestFrequency,
  type DigestPreference,
  type DigestUnsubscribeRequest,
  type Locale,
} from '@raccolta/contracts';
import { requireAccess } from '../access/access.js';
import { findMembership } from '../access/access.repository.js';
import { can, readsFilesOf } from '../access/rules.js';
import { webLink } from '../auth/links.js';
import type { Config } from '../config/config.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { renditionUrl } from '../files/rendition-links.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { memberRefs } from '../members/member-refs.js';
import type { UserRow } from '../users/users.repository.js';
import { digestUnsubscribeLinks, isDigestUnsubscribeToken } from './digest-links.js';
import {
  findDigest,
  listDigestCandidates,
  listFilesAfter,
  lockDigest,
  moveDigestCursor,
  setDigestFrequency,
  type DigestCandidate,
  type NewFileRow,
} from './digests.repository.js';

/**
 * Files younger than this are left for the next run: a file committed a moment late with an
 * earlier created_at than one already reported would otherwise fall behind the cursor.
 */
export const DIGEST_SETTLE_MS = 60_000;
/** The files one digest reads at most; the rest go in the next one. */
export const DIGEST_FILE_BATCH = 2000;
/** How long a digest's thumbnail links work (checked again as the member on every use). */
export const DIGEST_THUMBNAIL_TTL_SECONDS = 7 * 24 * 60 * 60;
/** A member's first digest in a team covers at most this much before it (and nothing before they joined). */
const FIRST_DIGEST_LOOKBACK_MS = DIGEST_INTERVAL_MS.daily;
const MAX_COLLECTIONS = 100;
const MAX_UPLOADERS = 10;

export type DigestDeps = Pick<AppContext, 'db' | 'config' | 'clock'>;

/** GET /teams/{teamId}/members/@me/digest. */
export async function getOwnDigest(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
): Promise<DigestPreference> {
  const access = await requireAccess(ctx, actor, { team: teamRef }, can.readOwnDigest);
  const row = await findDigest(ctx.db, access.team.id, actor.id);
  return present(access.role, actor, row?.frequency ?? null);
}

/** PUT /teams/{teamId}/members/@me/digest. */
export async function putOwnDigest(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  frequency: DigestFrequency,
): Promise<DigestPreference> {
  const access = await requireAccess(ctx, actor, { team: teamRef }, can.chooseDigest);
  await setDigestFrequency(ctx.db, access.team.id, actor.id, frequency, ctx.clock());
  return present(access.role, actor, frequency);
}

function present(
  role: DigestCandidate['role'],
  actor: UserRow,
  chosen: DigestFrequency | null,
): DigestPreference {
  const available = canReceiveDigest({ role, hasEmail: actor.email !== null });
  return {
    frequency: available ? effectiveDigestFrequency(role, chosen) : 'never',
    isDefault: chosen === null,
    available,
  };
}

/**
 * POST /digests/unsubscribe (the web page, or RFC 8058 one-click): that team's digests become
 * `never` for that member. A member no longer in the team has nothing to stop: same answer.
 */
export async function unsubscribeDigest(
  ctx: DigestDeps,
  input: DigestUnsubscribeRequest,
): Promise<void> {
  if (!isDigestUnsubscribeToken(ctx.config.secret, input.team, input.user, input.token))
    throw new AppError('invalidUnsubscribe', {
      message: 'The token does not match this member and team',
    });
  const member = await findMembership(ctx.db, input.team, input.user);
  if (!member) return;
  await setDigestFrequency(ctx.db, input.team, input.user, 'never', ctx.clock());
}

/** What one run did, for the job's log and the tests. */
export interface DigestRunResult {
  sent: number;
  /** Members whose cursor moved over files they cannot see, without an e-mail. */
  advanced: number;
}

/**
 * The scheduled run: every active member with an e-mail whose frequency is not `never` and whose
 * window (15 minutes, 24 hours) has passed gets one transaction that reads the files after their
 * cursor, keeps those in collections they can see (readsFilesOf, the §6 rule of requireAccess),
 * and, when there are any, queues one `mail.send` job and moves the cursor and `sent_at`. Both
 * commit together or not at all, so a run that dies is simply done again by the retry: nothing is
 * reported twice, nothing is skipped.
 */
export async function sendDueDigests(deps: DigestDeps): Promise<DigestRunResult> {
  const result: DigestRunResult = { sent: 0, advanced: 0 };
  const now = deps.clock();
  for (const candidate of await listDigestCandidates(deps.db)) {
    if (!isDue(candidate, now)) continue;
    const outcome = await digestMember(deps, candidate);
    if (outcome === 'sent') result.sent += 1;
    if (outcome === 'advanced') result.advanced += 1;
  }
  return result;
}

function isDue(row: Pick<DigestCandidate, 'role' | 'frequency' | 'sent_at'>, now: number): boolean {
  const frequency = effectiveDigestFrequency(row.role, row.frequency);
  if (frequency === 'never') return false;
  return row.sent_at === null || now - row.sent_at >= DIGEST_INTERVAL_MS[frequency];
}

async function digestMember(
  deps: DigestDeps,
  candidate: DigestCandidate,
): Promise<'sent' | 'advanced' | 'nothing'> {
  const { config, clock } = deps;
  const now = clock();
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockDigest(
      trx,
      config.database.kind,
      candidate.team_id,
      candidate.user_id,
      now,
    );
    // Read again under the lock: another worker may have sent it, or the member changed it.
    const member = await findMembership(trx, candidate.team_id, candidate.user_id);
    if (member?.status !== 'active') return 'nothing';
    const current = { ...row, role: member.role };
    if (!isDue(current, now)) return 'nothing';
    const start =
      row.cursor_at !== null && row.cursor_id !== null
        ? { at: row.cursor_at, id: row.cursor_id }
        : {
            at: Math.max(
              candidate.joined_at ?? candidate.member_created_at,
              now - FIRST_DIGEST_LOOKBACK_MS,
            ),
            id: '',
          };
    const files = await listFilesAfter(
      trx,
      candidate.team_id,
      start,
      now - DIGEST_SETTLE_MS,
      DIGEST_FILE_BATCH,
    );
    const last = files.at(-1);
    if (!last) return 'nothing';
    const cursor = { at: last.created_at, id: last.id };
    const seen = files.filter((file) =>
      readsFilesOf(
        { role: member.role, userId: candidate.user_id },
        { created_by: file.collection_created_by, mode: file.collection_mode },
      ),
    );
    if (seen.length === 0) {
      await moveDigestCursor(trx, candidate.team_id, candidate.user_id, cursor, null, now);
      return 'advanced';
    }
    const frequency = effectiveDigestFrequency(member.role, row.frequency);
    const vars = await digestVars(trx, config, candidate, seen, now);
    await enqueueMail(
      trx,
      {
        to: candidate.email,
        locale: localeOf(candidate.locale),
        template: 'digest',
        vars: { ...vars, frequency: frequency === 'instant' ? 'instant' : 'daily' },
      },
      clock,
    );
    await moveDigestCursor(trx, candidate.team_id, candidate.user_id, cursor, now, now);
    return 'sent';
  });
}

function localeOf(value: string): Locale {
  return (LOCALES as readonly string[]).includes(value) ? (value as Locale) : 'en';
}

async function digestVars(
  db: Db,
  config: Config,
  candidate: DigestCandidate,
  files: NewFileRow[],
  now: number,
) {
  const byCollection = new Map<string, { name: string; files: NewFileRow[]; latest: number }>();
  for (const file of files) {
    const entry = byCollection.get(file.collection_id) ?? {
      name: file.collection_name,
      files: [],
      latest: 0,
    };
    entry.files.push(file);
    entry.latest = Math.max(entry.latest, file.created_at);
    byCollection.set(file.collection_id, entry);
  }
  // The busiest collections first, then the most recent.
  const ordered = [...byCollection.entries()].sort(
    ([, a], [, b]) => b.files.length - a.files.length || b.latest - a.latest,
  );
  const listed = ordered.slice(0, MAX_COLLECTIONS);
  const names = await memberRefs(
    db,
    candidate.team_id,
    listed.flatMap(([, entry]) => entry.files.map((f) => f.uploaded_by)),
  );
  const nameOf = (userId: string) => names.get(userId)?.nickname ?? '?';
  const collectionLink = (collectionId: string) =>
    webLink(config, `/teams/${candidate.team_id}/collections/${collectionId}`, {});
  const links = {
    apiPublicUrl: config.apiPublicUrl,
    secret: config.secret,
    ttlSeconds: DIGEST_THUMBNAIL_TTL_SECONDS,
  };
  const thumbnails = files
    .filter((file) => file.rendition_status === 'ready')
    .slice(-DIGEST_MAX_THUMBNAILS)
    .reverse()
    .map((file) => ({
      src: renditionUrl(
        links,
        { fileId: file.id, userId: candidate.user_id, kind: 'thumbnail' },
        now,
      ),
      href: collectionLink(file.collection_id),
      alt: file.name.slice(0, 200),
    }));
  return {
    name: candidate.name,
    teamName: candidate.team_name,
    total: files.length,
    collections: listed.map(([collectionId, entry]) => {
      const uploaders = [...new Set(entry.files.map((f) => f.uploaded_by))];
      return {
        name: entry.name,
        count: entry.files.length,
        uploaders: uploaders.slice(0, MAX_UPLOADERS).map(nameOf),
        others: Math.max(0, uploaders.length - MAX_UPLOADERS),
        link: collectionLink(collectionId),
      };
    }),
    moreCollections: ordered.length - listed.length,
    thumbnails,
    settingsLink: webLink(config, `/teams/${candidate.team_id}`, {}),
    unsubscribe: digestUnsubscribeLinks(config, candidate.team_id, candidate.user_id),
  };
}
