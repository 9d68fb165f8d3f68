import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { hashPassword } from '../../src/auth/passwords.js';
import type { Db } from '../../src/db/create-db.js';
import { newId } from '../../src/db/ids.js';
import { zipStream } from '../../src/downloads/zip/index.js';
import { nicknameKey } from '../../src/members/nickname.js';
import { readAll } from '../../src/storage/testing/helpers.js';
import type { Storage } from '../../src/storage/storage.js';
import { FIXTURE_PASSWORD } from './seed-0002-accounts-and-teams.js';
import { DAY, HOUR, MINUTE, insertRows } from './rows.js';

/**
 * The schema point these rows are written at: every table of collections, files, uploads and
 * downloads exists; teams have no name_key (0009), strip_location (0012) or code (0013) yet, and
 * there are no upload_locks (0010) or storage_deletions (0011).
 */
export const POINT_0008 = '0008-subscriptions';

export type Role = 'owner' | 'admin' | 'uploader' | 'viewer';

export interface FixtureFile {
  id: string;
  collectionId: string;
  name: string;
  size: number;
  sha256: string;
}

export interface Rows0008 {
  users: Record<Role, { id: string; email: string }>;
  /** Invited, never joined. */
  invited: { id: string; email: string };
  team: { id: string; name: string; alias: string };
  collections: {
    /** Owned, by the owner: the uploader does not see it. */
    ceremony: { id: string; name: string };
    /** Collaborative, by the admin. */
    guests: { id: string; name: string };
    /** Owned by the uploader, still empty. */
    drafts: { id: string; name: string };
  };
  files: FixtureFile[];
  /** A tus upload of the uploader in `guests`, `offset` of its `data` received. */
  upload: { id: string; collectionId: string; fileName: string; data: Buffer; offset: number };
  /** The owner's ready download of `ceremony`: one part. */
  download: { id: string; sha256: string; size: number };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Where that version put a file's original (files.keys.ts then). */
const originalKey = (teamId: string, collectionId: string, fileId: string) =>
  `teams/${teamId}/collections/${collectionId}/${fileId}/original`;

/**
 * A wedding photographer's team as the app left it at 0008: four members in every role and an
 * invitation, an alias, owned and collaborative collections with tags and read marks, files whose
 * bytes are in storage, an upload half-way through (its row, and the partial file and JSON the tus
 * file store keeps under DATA_DIR/uploads), a finished upload, a ready collection download with its
 * zip stored, and newsletter subscriptions.
 */
export async function writeRows0008(
  db: Db,
  env: { storage: Storage; uploadsDir: string; now: number },
): Promise<Rows0008> {
  const { storage, uploadsDir, now } = env;
  const created = now - 30 * DAY;
  const hash = await hashPassword(FIXTURE_PASSWORD);
  const person = (role: Role, first: string, last: string) => ({
    id: newId(),
    email: `${first.toLowerCase()}.${last.toLowerCase()}@example.com`,
    role,
    first,
    last,
  });
  const people = [
    person('owner', 'Olivia', 'Rossi'),
    person('admin', 'Adamo', 'Bianchi'),
    person('uploader', 'Ugo', 'Verdi'),
    person('viewer', 'Vera', 'Neri'),
  ];
  const invitedPerson = person('viewer', 'Ines', 'Gallo');
  const users = Object.fromEntries(
    people.map((p) => [p.role, { id: p.id, email: p.email }]),
  ) as Rows0008['users'];
  const ownerId = users.owner.id;

  await insertRows(
    db,
    'users',
    [...people, invitedPerson].map((p, i) => ({
      id: p.id,
      email: p.email,
      email_verified: 1,
      username: `${p.first}.${p.last}`.toLowerCase(),
      kind: 'standard',
      team_id: null,
      nickname: p.first,
      first_name: p.first,
      last_name: p.last,
      avatar_url: null,
      password_hash: hash,
      password_change_required: 0,
      scope: 'global',
      locale: i % 2 ? 'en' : 'it',
      sign_up_method: 'email_password',
      token_version: 0,
      created_at: created + i * MINUTE,
      updated_at: created + i * MINUTE,
    })),
  );

  const team = { id: newId(), name: 'Fotografie Matrimonio Rossi', alias: 'rossi-foto' };
  await insertRows(db, 'teams', [
    {
      id: team.id,
      name: team.name,
      description: 'Foto e video del matrimonio',
      mode: 'collaborative',
      owner_id: ownerId,
      plan: 'free',
      star_alias: team.alias,
      logo_url: null,
      created_at: created,
      created_by: ownerId,
      updated_at: created,
      updated_by: ownerId,
    },
  ]);
  await insertRows(db, 'team_aliases', [
    { alias: team.alias, team_id: team.id, created_at: created, created_by: ownerId },
  ]);
  await insertRows(db, 'team_members', [
    ...people.map((p, i) => {
      const nickname = `${p.first} ${p.last[0] ?? ''}.`;
      return {
        team_id: team.id,
        user_id: p.id,
        role: p.role,
        status: 'active',
        type: 'standard',
        nickname,
        nickname_key: nicknameKey(nickname),
        email: p.email,
        created_at: created + i * MINUTE,
        created_by: ownerId,
        joined_at: created + i * MINUTE,
        invite_expires_at: null,
        updated_at: created + i * MINUTE,
      };
    }),
    {
      team_id: team.id,
      user_id: invitedPerson.id,
      role: 'viewer',
      status: 'invited',
      type: 'standard',
      nickname: 'Ines',
      nickname_key: nicknameKey('Ines'),
      email: invitedPerson.email,
      created_at: now - DAY,
      created_by: ownerId,
      joined_at: null,
      invite_expires_at: now + 6 * DAY,
      updated_at: now - DAY,
    },
  ]);

  const collection = (name: string, mode: 'owned' | 'collaborative', by: string) => ({
    id: newId(),
    name,
    mode,
    by,
  });
  const ceremony = collection('Cerimonia', 'owned', ownerId);
  const guests = collection('Dal telefono degli ospiti', 'collaborative', users.admin.id);
  const drafts = collection('Bozze di Ugo', 'owned', users.uploader.id);

  // Files: bytes into storage first, as the app does, then the rows.
  const fileSpecs: {
    collectionId: string;
    name: string;
    by: string;
    data: Buffer;
    type: string;
  }[] = [
    {
      collectionId: ceremony.id,
      name: 'programma.txt',
      by: ownerId,
      data: Buffer.from('Ore 11: cerimonia\nOre 13: pranzo\nOre 17: taglio della torta\n'),
      type: 'text/plain',
    },
    {
      collectionId: ceremony.id,
      name: 'scatti-grezzi.bin',
      by: users.admin.id,
      data: randomBytes(300 * 1024),
      type: 'application/octet-stream',
    },
    {
      collectionId: guests.id,
      name: 'auguri.txt',
      by: users.admin.id,
      data: Buffer.from('Tanti auguri agli sposi! — Zia Carla'),
      type: 'text/plain',
    },
    {
      collectionId: guests.id,
      name: 'video-corto.bin',
      by: users.uploader.id,
      data: randomBytes(64 * 1024 + 17),
      type: 'application/octet-stream',
    },
  ];
  const files: FixtureFile[] = [];
  const fileRows: Record<string, string | number | null>[] = [];
  for (const [i, spec] of fileSpecs.entries()) {
    const id = newId();
    const key = originalKey(team.id, spec.collectionId, id);
    await storage.put(key, Readable.from([spec.data]));
    const at = created + DAY + i * HOUR;
    files.push({
      id,
      collectionId: spec.collectionId,
      name: spec.name,
      size: spec.data.length,
      sha256: sha256(spec.data),
    });
    fileRows.push({
      id,
      team_id: team.id,
      collection_id: spec.collectionId,
      name: spec.name,
      original_name: spec.name,
      content_type: spec.type,
      size: spec.data.length,
      sha256: sha256(spec.data),
      storage_key: key,
      uploaded_by: spec.by,
      rendition_status: 'none',
      thumbnail_key: null,
      preview_key: null,
      width: null,
      height: null,
      created_at: at,
      updated_at: at,
    });
  }
  const lastFileAt = (collectionId: string) =>
    Math.max(
      ...fileRows.filter((r) => r.collection_id === collectionId).map((r) => Number(r.updated_at)),
    );
  await insertRows(
    db,
    'collections',
    [ceremony, guests, drafts].map((c) => {
      const count = files.filter((f) => f.collectionId === c.id).length;
      return {
        id: c.id,
        team_id: team.id,
        name: c.name,
        description: c === guests ? 'Caricate qui le vostre foto' : null,
        mode: c.mode,
        status: count ? 'ready' : 'draft',
        files_count: count,
        created_at: created + HOUR,
        created_by: c.by,
        updated_at: count ? lastFileAt(c.id) : created + HOUR,
        updated_by: c.by,
      };
    }),
  );
  await insertRows(db, 'files', fileRows);
  await insertRows(db, 'collection_tags', [
    {
      collection_id: ceremony.id,
      user_id: ownerId,
      team_id: team.id,
      updated_at: lastFileAt(ceremony.id),
      position: 0,
    },
  ]);
  const firstFile = files[0];
  if (!firstFile) throw new Error('no files');
  await insertRows(db, 'file_reads', [
    { file_id: firstFile.id, user_id: users.viewer.id, read_at: now - 2 * DAY },
  ]);
  await insertRows(db, 'collection_reads', [
    { collection_id: ceremony.id, user_id: users.viewer.id, read_at: now - 2 * DAY },
  ]);

  // The uploader's finished tus upload stays "completed" under its file's id until it expires.
  const tusFile = fileRows[3];
  const upload = {
    id: newId(),
    collectionId: guests.id,
    fileName: 'video-sposi.mp4',
    data: randomBytes(256 * 1024 + 5),
    offset: 100 * 1024,
  };
  await insertRows(db, 'uploads', [
    {
      id: String(tusFile?.id),
      team_id: team.id,
      collection_id: guests.id,
      created_by: users.uploader.id,
      file_name: 'video-corto.bin',
      size: Number(tusFile?.size),
      status: 'completed',
      created_at: Number(tusFile?.created_at) - MINUTE,
      expires_at: now + 12 * HOUR,
    },
    {
      id: upload.id,
      team_id: team.id,
      collection_id: guests.id,
      created_by: users.uploader.id,
      file_name: upload.fileName,
      size: upload.data.length,
      status: 'uploading',
      created_at: now - HOUR,
      expires_at: now + 23 * HOUR,
    },
  ]);
  // @tus/file-store: the bytes so far in `<id>`, the upload's description in `<id>.json`.
  await mkdir(uploadsDir, { recursive: true });
  await writeFile(path.join(uploadsDir, upload.id), upload.data.subarray(0, upload.offset));
  await writeFile(
    path.join(uploadsDir, `${upload.id}.json`),
    JSON.stringify({
      id: upload.id,
      size: upload.data.length,
      offset: 0,
      metadata: { filename: upload.fileName },
      creation_date: new Date(now - HOUR).toISOString(),
    }),
  );

  // The owner's collection download: planned, its one part's zip stored.
  const downloadId = newId();
  const entries = files.filter((f) => f.collectionId === ceremony.id);
  const dataOf = (f: FixtureFile) => fileSpecs[files.indexOf(f)]?.data ?? Buffer.alloc(0);
  const zip = await readAll(
    zipStream(
      entries.map((f) => ({
        name: `${ceremony.name}/${f.name}`,
        size: f.size,
        mtime: new Date(created),
        compress: f.name.endsWith('.txt'),
        open: () => Promise.resolve(Readable.from([dataOf(f)])),
      })),
    ),
  );
  const partKey = `downloads/${downloadId}/part-1.zip`;
  await storage.put(partKey, Readable.from([zip]));
  const requestedAt = now - 2 * HOUR;
  await insertRows(db, 'downloads', [
    {
      id: downloadId,
      team_id: team.id,
      collection_id: ceremony.id,
      requested_by: ownerId,
      collection_name: ceremony.name,
      prefix: null,
      file_ids: null,
      status: 'ready',
      total_parts: 1,
      file_count: entries.length,
      total_bytes: entries.reduce((sum, f) => sum + f.size, 0),
      error: null,
      created_at: requestedAt,
      updated_at: requestedAt + MINUTE,
      ready_at: requestedAt + MINUTE,
      expires_at: now + 5 * DAY,
    },
  ]);
  await insertRows(db, 'download_parts', [
    {
      download_id: downloadId,
      part_number: 1,
      file_count: entries.length,
      storage_key: partKey,
      size: zip.length,
      ready_at: requestedAt + MINUTE,
    },
  ]);
  await insertRows(
    db,
    'download_entries',
    entries.map((f, position) => ({
      download_id: downloadId,
      position,
      part_number: 1,
      file_id: f.id,
      entry_name: `${ceremony.name}/${f.name}`,
      compress: f.name.endsWith('.txt') ? 1 : 0,
    })),
  );

  await insertRows(db, 'subscriptions', [
    {
      id: newId(),
      email: 'ospite.curioso@example.org',
      status: 'confirmed',
      locale: 'it',
      terms_version: '2026-01',
      privacy_version: '2026-01',
      accepted_at: now - 10 * DAY,
      confirm_token_hash: null,
      confirmed_at: now - 10 * DAY + HOUR,
      unsubscribed_at: null,
      expires_at: null,
      created_at: now - 10 * DAY,
      updated_at: now - 10 * DAY + HOUR,
    },
    {
      id: newId(),
      email: 'in.attesa@example.org',
      status: 'pending',
      locale: 'en',
      terms_version: '2026-01',
      privacy_version: '2026-01',
      accepted_at: now - HOUR,
      confirm_token_hash: createHash('sha256').update('confirm').digest('hex'),
      confirmed_at: null,
      unsubscribed_at: null,
      expires_at: now + 2 * DAY,
      created_at: now - HOUR,
      updated_at: now - HOUR,
    },
  ]);

  return {
    users,
    invited: { id: invitedPerson.id, email: invitedPerson.email },
    team,
    collections: {
      ceremony: { id: ceremony.id, name: ceremony.name },
      guests: { id: guests.id, name: guests.name },
      drafts: { id: drafts.id, name: drafts.name },
    },
    files,
    upload,
    download: { id: downloadId, sha256: sha256(zip), size: zip.length },
  };
}
