import { z } from 'zod';
import {
  ALIAS_MAX_LENGTH,
  ALIAS_MIN_LENGTH,
  ASSIGNABLE_ROLES,
  COLLECTION_MODES,
  COLLECTION_NAME_MAX_LENGTH,
  COLLECTION_NAME_MIN_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  LOCALES,
  NICKNAME_MAX_LENGTH,
  NICKNAME_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PERSON_NAME_MAX_LENGTH,
  PREFERRED_NAME_MAX_LENGTH,
  TEAM_MODES,
  TEAM_NAME_MAX_LENGTH,
  TEAM_NAME_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants.js';
import type { ValidationMessageKey } from './messages.js';

/**
 * Field schemas of spec §5. Every issue message is a ValidationMessageKey. A field reports exactly
 * one key, the first rule it breaks in the spec's order: an empty value is "required", never "too
 * short". The presence and length checks abort; the pattern check comes last and does not, so a
 * form-level rule (passwordMatch) still runs beside a policy error.
 */

type Key = ValidationMessageKey;

const fail = (error: Key) => ({ error, abort: true }) as const;

interface TextRules {
  required: Key;
  min?: readonly [number, Key];
  max: readonly [number, Key];
  pattern?: readonly [RegExp, Key];
  lowerCase?: boolean;
}

/** A trimmed, required string; a missing or non-string value reports the required key too. */
function requiredText(rules: TextRules): z.ZodString {
  let schema = z.string({ error: rules.required }).trim();
  if (rules.lowerCase === true) schema = schema.toLowerCase();
  schema = schema.min(1, fail(rules.required));
  if (rules.min) schema = schema.min(rules.min[0], fail(rules.min[1]));
  schema = schema.max(rules.max[0], fail(rules.max[1]));
  if (rules.pattern) schema = schema.regex(rules.pattern[0], { error: rules.pattern[1] });
  return schema;
}

/** A trimmed string that may be left out; blank becomes absent, anything else meets the rules. */
function optionalText(rules: Omit<TextRules, 'required' | 'lowerCase'>) {
  const { min, pattern } = rules;
  let schema = z.string({ error: 'invalidInput' }).trim();
  // A plain .min() would reject the blank value that stands for "not given".
  if (min) schema = schema.refine((v) => v === '' || v.length >= min[0], fail(min[1]));
  schema = schema.max(rules.max[0], fail(rules.max[1]));
  if (pattern) schema = schema.refine((v) => v === '' || pattern[0].test(v), { error: pattern[1] });
  return schema.optional().transform((v) => (v === '' ? undefined : v));
}

/** Tokens, codes and sessions the client passes through: only presence and a sane size matter. */
export function opaqueStringSchema(error: Key = 'invalidInput', maxLength = 4096): z.ZodString {
  return z.string({ error }).trim().min(1, fail(error)).max(maxLength, fail(error));
}

// Patterns
/** The spec's "simple pattern": something, @, something, a dot, something; no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Letters in any script (with combining accents), spaces, hyphens, dots and apostrophes. */
export const NICKNAME_PATTERN = /^[\p{L}\p{M} .'’-]+$/u;
export const USERNAME_PATTERN = /^[A-Za-z0-9.]+$/;
/** Lowercase letters and digits in groups joined by single hyphens. */
export const ALIAS_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A digit, a lowercase and an uppercase letter, and a character that is none of those nor a space. */
export const PASSWORD_POLICY_PATTERN =
  /^(?=[\s\S]*\d)(?=[\s\S]*\p{Ll})(?=[\s\S]*\p{Lu})(?=[\s\S]*[^\p{L}\p{N}\s])[\s\S]*$/u;

/** Every body is an object; anything else is reported once, as invalidInput. */
export function bodySchema<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape, { error: 'invalidInput' });
}

/**
 * A value carried by an e-mailed link. Whatever is wrong with it, the user sees the whole link as
 * broken, so every failure reports the link's error key.
 */
export function linkParamSchema(error: Key): z.ZodString {
  return opaqueStringSchema(error, 1024);
}

export function linkEmailSchema(error: Key): z.ZodString {
  return opaqueStringSchema(error, EMAIL_MAX_LENGTH).regex(EMAIL_PATTERN, { error });
}

// Identifiers
export const idSchema = z.uuid({ error: 'invalidInput' });

/** A team id or any alias of it, as the sign-in `team` field and the `/teams/{team}` route take it. */
export const teamRefSchema = z
  .string({ error: 'invalidInput' })
  .trim()
  .toLowerCase()
  .min(1, fail('invalidInput'))
  .max(64, fail('invalidInput'));

// Teams and collections
export const aliasSchema = requiredText({
  required: 'aliasRequired',
  lowerCase: true,
  min: [ALIAS_MIN_LENGTH, 'aliasShort'],
  max: [ALIAS_MAX_LENGTH, 'aliasLong'],
  pattern: [ALIAS_PATTERN, 'policyAlias'],
});

export const teamNameSchema = requiredText({
  required: 'teamNameRequired',
  min: [TEAM_NAME_MIN_LENGTH, 'teamNameShort'],
  max: [TEAM_NAME_MAX_LENGTH, 'teamNameLong'],
});

export const teamDescriptionSchema = optionalText({
  max: [DESCRIPTION_MAX_LENGTH, 'teamDescriptionLong'],
});

export const teamModeSchema = z.enum(TEAM_MODES, { error: 'teamModeRequired' });

export const collectionNameSchema = requiredText({
  required: 'collectionNameRequired',
  min: [COLLECTION_NAME_MIN_LENGTH, 'collectionNameShort'],
  max: [COLLECTION_NAME_MAX_LENGTH, 'collectionNameLong'],
});

export const collectionDescriptionSchema = optionalText({
  max: [DESCRIPTION_MAX_LENGTH, 'collectionDescriptionLong'],
});

export const collectionModeSchema = z.enum(COLLECTION_MODES, { error: 'collectionModeRequired' });

// People
const NICKNAME_RULES = {
  min: [NICKNAME_MIN_LENGTH, 'nicknameShort'],
  max: [NICKNAME_MAX_LENGTH, 'nicknameLong'],
  pattern: [NICKNAME_PATTERN, 'policyNickname'],
} as const;

/** A member's name within a team. */
export const nicknameSchema = requiredText({ required: 'nicknameRequired', ...NICKNAME_RULES });

/** The owner's nickname when creating a team: may be left blank, else the nickname rules. */
export const optionalNicknameSchema = optionalText(NICKNAME_RULES);

/** The nickname a user gives at sign-up and edits on the profile ("preferred name"). */
export const preferredNameSchema = requiredText({
  required: 'preferredNameRequired',
  max: [PREFERRED_NAME_MAX_LENGTH, 'preferredNameLong'],
});

export const firstNameSchema = requiredText({
  required: 'firstNameRequired',
  max: [PERSON_NAME_MAX_LENGTH, 'firstNameLong'],
});

export const lastNameSchema = requiredText({
  required: 'lastNameRequired',
  max: [PERSON_NAME_MAX_LENGTH, 'lastNameLong'],
});

/**
 * An internal member's username, with the form's minimum of 2. The server reports a minimum of
 * USERNAME_SERVER_MIN (shortUsername); which reading wins is the API's decision.
 */
export const usernameSchema = requiredText({
  required: 'usernameRequired',
  min: [USERNAME_MIN_LENGTH, 'usernameShort'],
  max: [USERNAME_MAX_LENGTH, 'usernameLong'],
  pattern: [USERNAME_PATTERN, 'policyUsername'],
});

export const emailSchema = requiredText({
  required: 'emailRequired',
  max: [EMAIL_MAX_LENGTH, 'emailLong'],
  pattern: [EMAIL_PATTERN, 'invalidEmail'],
});

export const roleSchema = z.enum(ASSIGNABLE_ROLES, { error: 'roleRequired' });

export const localeSchema = z.enum(LOCALES, { error: 'localeRequired' });

// Passwords
/** A password being chosen: sign-up, reset, new password, invited account. */
export const passwordSchema = requiredText({
  required: 'passwordRequired',
  min: [PASSWORD_MIN_LENGTH, 'passwordShort'],
  max: [PASSWORD_MAX_LENGTH, 'passwordLong'],
  pattern: [PASSWORD_POLICY_PATTERN, 'policyPassword'],
});

/** A password being used: the policy is not checked, so older passwords still sign in. */
export const signInPasswordSchema = requiredText({
  required: 'passwordRequired',
  min: [PASSWORD_MIN_LENGTH, 'passwordShort'],
  max: [PASSWORD_MAX_LENGTH, 'passwordLong'],
});

// Sign-in identifier
/** The single "e-mail or username" field of the sign-in form. */
export const signInIdentifierSchema = requiredText({
  required: 'emailUsernameRequired',
  max: [EMAIL_MAX_LENGTH, 'emailLong'],
});

export type SignInIdentifier = { email: string } | { username: string };

/** Reads the sign-in field as an e-mail when it looks like one, else as a username. */
export function parseSignInIdentifier(value: string): SignInIdentifier {
  const trimmed = value.trim();
  return EMAIL_PATTERN.test(trimmed) ? { email: trimmed } : { username: trimmed };
}

// Consent
/** The "accept Terms & Privacy Policy" checkbox of an account form. */
export const acceptTermsSchema = z.literal(true, { error: 'acceptTermsRequired' });

/** The terms checkbox of the newsletter subscribe form. */
export const subscribeTermsSchema = z.literal(true, { error: 'termsRequired' });
