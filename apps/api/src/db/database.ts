import type { ColumnType, Generated } from 'kysely';
import type { DigestFrequency } from '@raccolta/contracts';

/**
 * Column conventions, identical on SQLite and PostgreSQL (see docs/decisions.md):
 * ids are UUID v7 text, timestamps are epoch milliseconds (bigint), booleans are 0/1 integers,
 * JSON is text serialised by the repository that owns it.
 */
export interface JobsTable {
  id: string;
  queue: string;
  payload: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  max_attempts: number;
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export type UserScope = 'global' | 'team';
export type UserKind = 'standard' | 'internal';

export interface UsersTable {
  id: string;
  /** Lower-cased; null for internal members, who have no e-mail. */
  email: string | null;
  email_verified: number;
  /** Standard users: unique among standard users. Internal members: unique within their team. */
  username: string;
  kind: UserKind;
  /** The team an internal member belongs to; null for standard users. */
  team_id: string | null;
  nickname: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
  /** argon2id PHC string; null for accounts that only sign in through a provider. */
  password_hash: string | null;
  /** Internal members must choose a password at their first sign-in. */
  password_change_required: number;
  scope: UserScope;
  locale: string;
  /** How the account was created: email_password or a provider id. */
  sign_up_method: string;
  /** Bumped on sign-out, password reset and change: access tokens carrying an older one are refused. */
  token_version: number;
  created_at: number;
  updated_at: number;
}

export interface UserIdentitiesTable {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: number;
}

/** A refresh-token family as the user sees it (migration 0017). */
export interface SessionsTable {
  id: string;
  user_id: string;
  /** Null for a session opened before devices were recorded. */
  user_agent: string | null;
  /** Null: not recorded; '': recorded but not recognised. */
  device_label: string | null;
  ip_hint: string | null;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The last POST /users/@me/reauthenticate; null: none since the sign-in (created_at). */
  authenticated_at: number | null;
}

export interface RefreshTokensTable {
  id: string;
  family_id: string;
  user_id: string;
  token_hash: string;
  identity_provider: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export type OneTimeCodePurpose =
  | 'verify_email'
  | 'reset_password'
  | 'new_password'
  | 'oauth_code'
  | 'invitation'
  /** The sign-in second step (data: which sign-in, password or provider). */
  | 'second_factor'
  /** A WebAuthn challenge: the code is the challenge itself. */
  | 'webauthn_register'
  | 'webauthn_authenticate';

export interface OneTimeCodesTable {
  id: string;
  user_id: string;
  purpose: OneTimeCodePurpose;
  code_hash: string;
  /** JSON: what the code is bound to (redirect URI and PKCE challenge of an OAuth code). */
  data: string | null;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: number;
}

export interface OauthTransactionsTable {
  id: string;
  provider: string;
  client_redirect_uri: string;
  client_state: string;
  client_code_challenge: string;
  provider_state: string;
  provider_nonce: string;
  provider_code_verifier: string;
  locale: string;
  expires_at: number;
  created_at: number;
}

export type TeamMode = 'collaborative' | 'controlled';
export type Plan = 'free' | 'pro' | 'premium';
export type MemberRole = 'owner' | 'admin' | 'uploader' | 'viewer';
export type MemberStatus =
  'active' | 'invited' | 'pending' | 'rejected' | 'left' | 'banned' | 'disabled';

export interface TeamsTable {
  id: string;
  name: string;
  /**
   * The name folded for case-insensitive search (teams/team-name.ts); optional on insert, where
   * null is read as lower(name).
   */
  name_key: ColumnType<string | null, string | null | undefined, string | null>;
  description: string | null;
  mode: TeamMode;
  owner_id: string;
  plan: Plan;
  star_alias: string | null;
  logo_url: string | null;
  created_at: number;
  created_by: string;
  updated_at: number;
  updated_by: string;
  /** 1: uploads lose their GPS position before they are stored (0012); defaults to 0. */
  strip_location: ColumnType<number, number | undefined, number>;
  /** The short code internal contributors type (teams/team-code.ts); set for every team (0013). */
  code: string | null;
  /** 1: owners and admins must have a second factor to use the team (0016); defaults to 0. */
  require_second_factor: ColumnType<number, number | undefined, number>;
}

/** A user's TOTP authenticator (0016); active once confirmed_at is set. */
export interface UserTotpTable {
  user_id: string;
  /** AES-256-GCM with a key derived from APP_SECRET (auth/second-factor/totp.ts). */
  secret_enc: string;
  confirmed_at: number | null;
  /** The last time step whose code was accepted: a code of that step or an earlier one is refused. */
  last_used_step: number | null;
  created_at: number;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  transports: string | null;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface TeamAliasesTable {
  alias: string;
  team_id: string;
  created_at: number;
  created_by: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  role: MemberRole;
  status: MemberStatus;
  type: 'internal' | 'standard';
  nickname: string | null;
  /**
   * The nickname folded for case-insensitive uniqueness and prefix search (members/nickname.ts);
   * optional on insert, where null is read as lower(nickname).
   */
  nickname_key: ColumnType<string | null, string | null | undefined, string | null>;
  email: string | null;
  created_at: number;
  created_by: string | null;
  joined_at: number | null;
  invite_expires_at: number | null;
  updated_at: number;
}

export type CollectionMode = 'owned' | 'collaborative';
/** `draft` until the first file arrives, then `ready` (there is something to download). */
export type CollectionStatus = 'draft' | 'ready';

export interface CollectionsTable {
  id: string;
  team_id: string;
  name: string;
  description: string | null;
  mode: CollectionMode;
  status: CollectionStatus;
  files_count: Generated<number>;
  created_at: number;
  created_by: string;
  /** Also moved by every file added or removed: the lists' reference date. */
  updated_at: number;
  updated_by: string;
  /** The deadline's instant (epoch ms) and the IANA zone it was set in; null without one. */
  deadline_at: ColumnType<number | null, number | null | undefined, number | null>;
  deadline_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: files still accepted after the deadline, marked late. */
  allow_late_uploads: ColumnType<number, number | undefined, number>;
}

/** One reminder e-mail per (collection, member, days before the deadline): migration 0018. */
export interface CollectionRemindersTable {
  collection_id: string;
  user_id: string;
  days_before: number;
  status: 'pending' | 'queued' | 'skipped';
  created_at: number;
  queued_at: number | null;
}

export interface CollectionTagsTable {
  collection_id: string;
  user_id: string;
  team_id: string;
  /** A copy of the collection's updated_at, kept in step by every write that moves it. */
  updated_at: number;
  /** The tag's place in the order the tags were set. */
  position: number;
}

/** none: not an image we render; pending: job queued; ready; failed: logged, shown with its icon. */
export type RenditionStatus = 'none' | 'pending' | 'ready' | 'failed';

export interface FilesTable {
  id: string;
  team_id: string;
  collection_id: string;
  /** The display name: the client's name made safe (no path, no control characters, bounded). */
  name: string;
  /** What the client sent, bounded; shown only, never part of a storage key. */
  original_name: string;
  /** Sniffed from the bytes, never taken from the client. */
  content_type: string;
  size: number;
  /** Of the stored bytes. */
  sha256: string;
  /**
   * Of the bytes as uploaded (differs from `sha256` when a location was stripped): what the
   * duplicate lookup compares. Null only for a file restored from a trash row older than it.
   */
  received_sha256: string | null;
  storage_key: string;
  uploaded_by: string;
  rendition_status: RenditionStatus;
  thumbnail_key: string | null;
  preview_key: string | null;
  width: number | null;
  height: number | null;
  created_at: number;
  updated_at: number;
  /** When the integrity check found its original damaged or missing; null while it is good. */
  damaged_at: number | null;
  /** Through an upload link (0023): the link, the guest's browser id, name and e-mail. */
  link_id: ColumnType<string | null, string | null | undefined, string | null>;
  guest_id: ColumnType<string | null, string | null | undefined, string | null>;
  guest_name: ColumnType<string | null, string | null | undefined, string | null>;
  guest_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: arrived after its collection's deadline (late uploads allowed). */
  late: ColumnType<number, number | undefined, number>;
}

/** A member's digest choice and cursor in one team (migration 0022). */
export interface MemberDigestsTable {
  team_id: string;
  user_id: string;
  /** never | daily | instant; null: the role's default. */
  frequency: DigestFrequency | null;
  /** created_at and id of the last file a digest covered; null: none yet. */
  cursor_at: number | null;
  cursor_id: string | null;
  /** When the last digest was queued. */
  sent_at: number | null;
  updated_at: number;
}

export interface FileReadsTable {
  file_id: string;
  user_id: string;
  read_at: number;
}

export interface CollectionReadsTable {
  collection_id: string;
  user_id: string;
  read_at: number;
}

export type UploadStatus = 'uploading' | 'completed';

export interface UploadsTable {
  /** Also the id of the file the upload becomes. */
  id: string;
  team_id: string;
  collection_id: string;
  created_by: string;
  /** The client's name, bounded; shown in logs only until the file row makes it safe. */
  file_name: string;
  /** The declared Upload-Length. */
  size: number;
  status: UploadStatus;
  created_at: number;
  expires_at: number;
  /** Through an upload link (0023): the link, the guest's browser id, name and e-mail. */
  link_id: ColumnType<string | null, string | null | undefined, string | null>;
  guest_id: ColumnType<string | null, string | null | undefined, string | null>;
  guest_name: ColumnType<string | null, string | null | undefined, string | null>;
  guest_email: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A collection's upload link for guests (0023). */
export interface UploadLinksTable {
  id: string;
  team_id: string;
  collection_id: string;
  token_hash: string;
  token_enc: string;
  label: string | null;
  password_hash: string | null;
  expires_at: number | null;
  max_files: number | null;
  max_bytes: number | null;
  /** JSON array of media types and families. */
  accepted_types: string;
  require_name: number;
  require_email: number;
  enabled: number;
  reserved_files: ColumnType<number, number | undefined, number>;
  reserved_bytes: ColumnType<number, number | undefined, number>;
  created_at: number;
  created_by: string;
  updated_at: number;
}

/** A stored object to delete, its rows already gone (migration 0011). */
export interface StorageDeletionsTable {
  key: string;
  queued_at: number;
}

/** A deleted file or collection, restorable until purged (migration 0014). */
export interface TrashTable {
  id: string;
  team_id: string;
  kind: 'file' | 'collection';
  /** A file deleted with its collection: the collection's id. */
  parent_id: string | null;
  collection_id: string;
  name: string;
  collection_name: string;
  size: number;
  file_count: number;
  content_type: string | null;
  deleted_by: string;
  deleted_at: number;
  /** The row as it was, as JSON (a collection's with `tags`). */
  data: string;
}

export type VerificationPhase = 'files' | 'orphans' | 'done';

/** A run of the storage integrity check (migration 0015). */
export interface StorageVerificationRunsTable {
  id: string;
  started_at: number;
  phase: VerificationPhase;
  last_file_id: string | null;
  files_checked: ColumnType<number, number | undefined, number>;
  bytes_read: ColumnType<number, number | undefined, number>;
  updated_at: number;
  finished_at: number | null;
}

export type FindingKind = 'damaged' | 'missing' | 'orphan' | 'rendition';

/** What the integrity check found wrong with one stored object (migration 0015). */
export interface StorageFindingsTable {
  key: string;
  kind: FindingKind;
  file_id: string | null;
  detail: string;
  run_id: string;
  found_at: number;
}

/** A tus request's lock on an upload, shared by every process (UPLOAD_LOCKS=database). */
export interface UploadLocksTable {
  upload_id: string;
  /** The request holding it (a random id per lock). */
  holder: string;
  /** Extended while the request runs; a lock past it was left by a process that died. */
  expires_at: number;
  /** 1 once another request asked the holder to let go. */
  release_requested: ColumnType<number, number | undefined, number>;
}

export type DownloadStatus = 'inProgress' | 'ready' | 'failed' | 'expired';

export interface DownloadsTable {
  id: string;
  team_id: string;
  collection_id: string;
  requested_by: string;
  collection_name: string;
  /** Only files whose name starts with this; null for all. */
  prefix: string | null;
  /** JSON array of file ids: only these; null for all. */
  file_ids: string | null;
  status: DownloadStatus;
  /** Null until the files are planned into parts. */
  total_parts: number | null;
  file_count: number;
  total_bytes: number;
  error: string | null;
  created_at: number;
  updated_at: number;
  ready_at: number | null;
  expires_at: number | null;
}

export interface DownloadPartsTable {
  download_id: string;
  /** 1-based. */
  part_number: number;
  file_count: number;
  /** Set (with size and ready_at) only once the part's zip is completely stored. */
  storage_key: string | null;
  size: number | null;
  ready_at: number | null;
}

export interface DownloadEntriesTable {
  download_id: string;
  /** Order in the archive, across parts. */
  position: number;
  part_number: number;
  file_id: string;
  /** Unique within the download, safe as a zip entry name. */
  entry_name: string;
  /** 1: deflated; 0: stored. */
  compress: number;
}

export type SubscriptionStatus = 'pending' | 'confirmed' | 'unsubscribed';

export interface SubscriptionsTable {
  id: string;
  /** Trimmed and lower-cased; unique. */
  email: string;
  status: SubscriptionStatus;
  /** The language of the newsletter e-mails. */
  locale: string;
  /** The legal texts' versions accepted, and when (the latest subscribe request). */
  terms_version: string;
  privacy_version: string;
  accepted_at: number;
  /** SHA-256 of the token in the latest confirmation link; null when no link was sent. */
  confirm_token_hash: string | null;
  confirmed_at: number | null;
  unsubscribed_at: number | null;
  /** When the purge deletes the row (pending: the link's expiry too); null while confirmed. */
  expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  jobs: JobsTable;
  users: UsersTable;
  user_identities: UserIdentitiesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  rate_limits: RateLimitsTable;
  oauth_transactions: OauthTransactionsTable;
  teams: TeamsTable;
  team_aliases: TeamAliasesTable;
  team_members: TeamMembersTable;
  collections: CollectionsTable;
  collection_tags: CollectionTagsTable;
  collection_reminders: CollectionRemindersTable;
  files: FilesTable;
  file_reads: FileReadsTable;
  collection_reads: CollectionReadsTable;
  uploads: UploadsTable;
  upload_links: UploadLinksTable;
  upload_locks: UploadLocksTable;
  storage_deletions: StorageDeletionsTable;
  trash: TrashTable;
  storage_verification_runs: StorageVerificationRunsTable;
  storage_findings: StorageFindingsTable;
  downloads: DownloadsTable;
  download_parts: DownloadPartsTable;
  download_entries: DownloadEntriesTable;
  subscriptions: SubscriptionsTable;
  member_digests: MemberDigestsTable;
}
