import {
  NICKNAME_MAX_LENGTH,
  NICKNAME_MIN_LENGTH,
  NICKNAME_PATTERN,
  PERSON_NAME_MAX_LENGTH,
  type Locale,
} from '@raccolta/contracts';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/create-db.js';
import {
  findUserByEmail,
  findUserById,
  insertStandardUser,
  type UserRow,
} from '../../users/users.repository.js';
import { findIdentity, insertIdentity } from './oauth.repository.js';
import type { ProviderProfile } from './providers.js';

export const INVITATION_ONLY_MESSAGE = 'Sign-up is by invitation only';

/** A profile whose e-mail the provider vouched for. */
export type VerifiedProfile = ProviderProfile & { email: string };

export type AccountOutcome =
  { kind: 'signed-in'; user: UserRow; created: boolean } | { kind: 'refused'; description: string };

/**
 * The account a provider login belongs to: the one already linked to this provider identity, else
 * the one with the same e-mail (now linked), else a new one unless sign-up is by invitation only.
 * Runs inside the caller's transaction.
 */
export async function resolveAccount(
  db: Db,
  config: Config,
  input: { providerId: string; profile: VerifiedProfile; locale: Locale },
  nowMs: number,
): Promise<AccountOutcome> {
  const { providerId, profile } = input;
  const email = profile.email.toLowerCase();
  const identity = await findIdentity(db, providerId, profile.subject);
  const linked = identity && (await findUserById(db, identity.user_id));
  if (linked) return { kind: 'signed-in', user: linked, created: false };

  const existing = await findUserByEmail(db, email);
  if (existing) {
    await insertIdentity(
      db,
      { provider: providerId, subject: profile.subject, userId: existing.id, email },
      nowMs,
    );
    // The provider proved the mailbox. A password chosen by whoever signed up without ever
    // proving it could belong to someone else: it stops working, the owner can reset it.
    const unverified = existing.email_verified !== 1;
    const changes = {
      email_verified: 1,
      ...(unverified ? { password_hash: null } : {}),
      updated_at: nowMs,
    };
    await db.updateTable('users').set(changes).where('id', '=', existing.id).execute();
    return { kind: 'signed-in', user: { ...existing, ...changes }, created: false };
  }

  if (config.auth.signupMode === 'invitation') {
    return { kind: 'refused', description: INVITATION_ONLY_MESSAGE };
  }
  const user = await insertStandardUser(
    db,
    {
      email,
      emailVerified: true,
      nickname: nicknameFrom(profile),
      firstName: personName(profile.givenName),
      lastName: personName(profile.familyName),
      passwordHash: null,
      scope: config.auth.signupGlobalScope ? 'global' : 'team',
      locale: input.locale,
      signUpMethod: providerId,
    },
    nowMs,
  );
  // The same address signed up at this very moment by another request: let the user retry.
  if (!user) return { kind: 'refused', description: 'This e-mail address was just signed up' };
  await insertIdentity(
    db,
    { provider: providerId, subject: profile.subject, userId: user.id, email },
    nowMs,
  );
  return { kind: 'signed-in', user, created: true };
}

const NOT_NICKNAME_CHARACTERS = /[^\p{L}\p{M} .'’-]+/gu;

/**
 * A nickname that passes the §5 rules, from the provider's names; none when nothing usable is left
 * (the display name then falls back to the e-mail).
 */
export function nicknameFrom(
  profile: Partial<Pick<ProviderProfile, 'name' | 'givenName' | 'familyName'>>,
): string | null {
  const joined = [profile.givenName, profile.familyName].filter(Boolean).join(' ');
  for (const candidate of [profile.name, joined]) {
    const cleaned = (candidate ?? '')
      .replace(NOT_NICKNAME_CHARACTERS, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, NICKNAME_MAX_LENGTH)
      .trim();
    if (cleaned.length >= NICKNAME_MIN_LENGTH && NICKNAME_PATTERN.test(cleaned)) return cleaned;
  }
  return null;
}

function personName(value: string | undefined): string | null {
  return value ? value.slice(0, PERSON_NAME_MAX_LENGTH) : null;
}
