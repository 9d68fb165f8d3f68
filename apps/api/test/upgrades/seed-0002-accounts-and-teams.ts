import { createHash } from 'node:crypto';
import { hashPassword } from '../../src/auth/passwords.js';
import type { Db } from '../../src/db/create-db.js';
import { newId } from '../../src/db/ids.js';
import { DAY, HOUR, insertRows } from './rows.js';

/** The schema point these rows are written at: accounts and teams, before 0004's nickname_key. */
export const POINT_0002 = '0002-accounts-and-teams';

/** The password of every account the fixtures create. */
export const FIXTURE_PASSWORD = 'Upgrade-Pa55word';

export interface Rows0002 {
  /** A standard user who signs in with e-mail and password; owner of `team`. */
  owner: { id: string; email: string };
  /** An internal member who has never signed in: must choose a password first. */
  internal: { id: string; username: string };
  team: { id: string; name: string; alias: string };
  /** Nicknames as written, which 0004 folds into nickname_key. */
  nicknames: Record<string, string>;
}

/**
 * An early team, as the app wrote it when only migrations 0001–0002 existed: a team whose name
 * and nicknames need Unicode folding (0004, 0009), an alias, an internal member, a provider
 * identity, a refresh token, codes, an OAuth transaction, a rate limit and a finished job.
 */
export async function writeRows0002(db: Db, now: number): Promise<Rows0002> {
  const created = now - 400 * DAY;
  const owner = { id: newId(), email: 'elodie.marchand@example.it' };
  const internal = { id: newId(), username: 'scanner.ingresso' };
  const team = { id: newId(), name: 'Archivio  STORICO Über', alias: 'archivio' };
  const nicknames = { [owner.id]: '  Élodie   Marchand ', [internal.id]: 'Scanner Ingresso' };
  const hash = await hashPassword(FIXTURE_PASSWORD);

  await insertRows(db, 'users', [
    {
      id: owner.id,
      email: owner.email,
      email_verified: 1,
      username: 'elodie.marchand',
      kind: 'standard',
      team_id: null,
      nickname: 'Élodie',
      first_name: 'Élodie',
      last_name: 'Marchand',
      avatar_url: null,
      password_hash: hash,
      password_change_required: 0,
      scope: 'global',
      locale: 'it',
      sign_up_method: 'email_password',
      token_version: 3,
      created_at: created,
      updated_at: created + DAY,
    },
    {
      id: internal.id,
      email: null,
      email_verified: 0,
      username: internal.username,
      kind: 'internal',
      team_id: team.id,
      nickname: 'Scanner',
      first_name: null,
      last_name: null,
      avatar_url: null,
      password_hash: hash,
      password_change_required: 1,
      scope: 'team',
      locale: 'it',
      sign_up_method: 'internal',
      token_version: 0,
      created_at: created + HOUR,
      updated_at: created + HOUR,
    },
  ]);
  await insertRows(db, 'user_identities', [
    {
      provider: 'google',
      subject: '109876543210987654321',
      user_id: owner.id,
      email: owner.email,
      created_at: created + 2 * DAY,
    },
  ]);
  await insertRows(db, 'refresh_tokens', [
    {
      id: newId(),
      family_id: newId(),
      user_id: owner.id,
      token_hash: createHash('sha256').update('old refresh token').digest('hex'),
      identity_provider: 0,
      expires_at: now + 20 * DAY,
      used_at: null,
      revoked_at: null,
      created_at: now - 10 * DAY,
    },
  ]);
  await insertRows(db, 'one_time_codes', [
    {
      id: newId(),
      user_id: owner.id,
      purpose: 'reset_password',
      code_hash: createHash('sha256').update('old reset code').digest('hex'),
      data: null,
      expires_at: now - 300 * DAY,
      used_at: now - 301 * DAY,
      created_at: now - 301 * DAY,
    },
  ]);
  await insertRows(db, 'oauth_transactions', [
    {
      id: newId(),
      provider: 'google',
      client_redirect_uri: 'https://raccolta.example/auth/callback',
      client_state: 'state-1',
      client_code_challenge: 'challenge-1',
      provider_state: 'provider-state-1',
      provider_nonce: 'nonce-1',
      provider_code_verifier: 'verifier-1',
      locale: 'it',
      expires_at: now + HOUR,
      created_at: now - HOUR,
    },
  ]);
  await insertRows(db, 'rate_limits', [
    { key: 'signin:203.0.113.9', count: 3, reset_at: now + HOUR },
  ]);
  await insertRows(db, 'jobs', [
    {
      id: newId(),
      queue: 'mail.send',
      payload: JSON.stringify({ to: owner.email, template: 'welcome' }),
      status: 'succeeded',
      attempts: 1,
      max_attempts: 5,
      run_at: created,
      locked_by: null,
      locked_until: null,
      last_error: null,
      dedupe_key: null,
      created_at: created,
      updated_at: created + 1000,
      finished_at: created + 1000,
    },
  ]);
  await insertRows(db, 'teams', [
    {
      id: team.id,
      name: team.name,
      description: 'Fondo fotografico della biblioteca',
      mode: 'controlled',
      owner_id: owner.id,
      plan: 'pro',
      star_alias: team.alias,
      logo_url: null,
      created_at: created,
      created_by: owner.id,
      updated_at: created + DAY,
      updated_by: owner.id,
    },
  ]);
  await insertRows(db, 'team_aliases', [
    { alias: team.alias, team_id: team.id, created_at: created, created_by: owner.id },
  ]);
  await insertRows(db, 'team_members', [
    {
      team_id: team.id,
      user_id: owner.id,
      role: 'owner',
      status: 'active',
      type: 'standard',
      nickname: nicknames[owner.id] ?? null,
      email: owner.email,
      created_at: created,
      created_by: owner.id,
      joined_at: created,
      invite_expires_at: null,
      updated_at: created,
    },
    {
      team_id: team.id,
      user_id: internal.id,
      role: 'uploader',
      status: 'active',
      type: 'internal',
      nickname: nicknames[internal.id] ?? null,
      email: null,
      created_at: created + HOUR,
      created_by: owner.id,
      joined_at: created + HOUR,
      invite_expires_at: null,
      updated_at: created + HOUR,
    },
  ]);
  return { owner, internal, team, nicknames };
}
