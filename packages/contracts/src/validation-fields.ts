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

/**
 * Characters no text field takes: C0 and C1 controls (NUL included: PostgreSQL cannot store it)
 * and the bidi embeddings, overrides and isolates that make text read other than it is stored.
 * Multi-line fields (descriptions) still take tab, line feed and carriage return.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const FORBIDDEN_TEXT_PATTERN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const FORBIDDEN_MULTILINE_PATTERN =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** Text that shows nothing: spaces, format characters (zero-width, marks) and fillers only. */
const INVISIBLE_ONLY_PATTERN = /^[\s\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/** Whether `value` is free of the characters no single-line text field takes. */
export function isPlainText(value: string): boolean {
  return !FORBIDDEN_TEXT_PATTERN.test(value);
}

/** Whether `value` shows something: not empty, not only invisible characters. */
export function isVisibleText(value: string): boolean {
  return !INVISIBLE_ONLY_PATTERN.test(value);
}

/** A trimmed, required string; a missing or non-string value reports the required key too. */
function requiredText(rules: TextRules): z.ZodString {
  let schema = z.string({ error: rules.required }).trim();
  if (rules.lowerCase === true) schema = schema.toLowerCase();
  schema = schema.min(1, fail(rules.required));
  // A name of invisible characters only is as good as none.
  schema = schema.refine(isVisibleText, fail(rules.required));
  schema = schema.refine(isPlainText, fail('invalidInput'));
  if (rules.min) schema = schema.min(rules.min[0], fail(rules.min[1]));
  schema = schema.max(rules.max[0], fail(rules.max[1]));
  if (rules.pattern) schema = schema.regex(rules.pattern[0], { error: rules.pattern[1] });
  return schema;
}

/** A trimmed string that may be left out; blank becomes absent, anything else meets the rules. */
function optionalText(rules: Omit<TextRules, 'required' | 'lowerCase'> & { multiline?: boolean }) {
  const { min, pattern } = rules;
  const forbidden = rules.multiline === true ? FORBIDDEN_MULTILINE_PATTERN : FORBIDDEN_TEXT_PATTERN;
  let schema = z.string({ error: 'invalidInput' }).trim();
  schema = schema.refine((v) => !forbidden.test(v), fail('invalidInput'));
  // Invisible characters only count as blank, so as "not given".
  schema = schema.overwrite((v) => (isVisibleText(v) ? v : ''));
  // A plain .min() would reject the blank value that stands for "not given".
  if (min) schema = schema.refine((v) => v === '' || v.length >= min[0], fail(min[1]));
  schema = schema.max(rules.max[0], fail(rules.max[1]));
  if (pattern) schema = schema.refine((v) => v === '' || pattern[0].test(v), { error: pattern[1] });
  return schema.optional().transform((v) => (v === '' ? undefined : v));
}

/** Tokens, codes and sessions the client passes through: only presence and a sane size matter. */
export function opaqueStringSchema(error: Key = 'invalidInput', maxLength = 4096): z.ZodString {
  return z
    .string({ error })
    .trim()
    .min(1, fail(error))
    .max(maxLength, fail(error))
    .refine(isPlainText, fail(error));
}

// Patterns
/**
 * The one e-mail rule of forms, API and mail job: an address every mail server takes. ASCII only
 * (no SMTPUTF8); a local part of at most 64 letters, digits and _ ' + - in dot-separated runs (no
 * leading, trailing or doubled dot); a domain of dot-separated labels (letters, digits, inner
 * hyphens, at most 63 each) ending in a top-level domain of at least two letters.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)[A-Za-z0-9_'+-]+(?:\.[A-Za-z0-9_'+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
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

/** How deep and how long (as JSON text) a free-form value may be, e.g. a JSON-patch `value`. */
export const JSON_VALUE_MAX_DEPTH = 8;
export const JSON_VALUE_MAX_LENGTH = 10_000;

/** Whether `value` nests at most `maxDepth` arrays or objects deep; iterative, so never overflows. */
export function jsonDepthAtMost(value: unknown, maxDepth: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.node !== 'object' || item.node === null) continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return false;
    for (const child of Object.values(item.node)) stack.push({ node: child, depth });
  }
  return true;
}

/** Any JSON value, bounded in depth and size, so checking or logging it stays cheap. */
export const boundedJsonValueSchema = z
  .unknown()
  .refine((v) => jsonDepthAtMost(v, JSON_VALUE_MAX_DEPTH), { error: 'invalidInput', abort: true })
  .refine(
    (v) => ((JSON.stringify(v) as string | undefined)?.length ?? 0) <= JSON_VALUE_MAX_LENGTH,
    {
      error: 'invalidInput',
    },
  );

// Identifiers
export const idSchema = z.uuid({ error: 'invalidInput' });

/** A team id, any alias of it or its short code, as the sign-in `team` field and the `/teams/{team}` route take it. */
export const teamRefSchema = z
  .string({ error: 'invalidInput' })
  .trim()
  .toLowerCase()
  .min(1, fail('invalidInput'))
  .max(64, fail('invalidInput'))
  .refine(isPlainText, fail('invalidInput'));

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
  multiline: true,
});

export const teamModeSchema = z.enum(TEAM_MODES, { error: 'teamModeRequired' });

export const collectionNameSchema = requiredText({
  required: 'collectionNameRequired',
  min: [COLLECTION_NAME_MIN_LENGTH, 'collectionNameShort'],
  max: [COLLECTION_NAME_MAX_LENGTH, 'collectionNameLong'],
});

export const collectionDescriptionSchema = optionalText({
  max: [DESCRIPTION_MAX_LENGTH, 'collectionDescriptionLong'],
  multiline: true,
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
 * An internal member's username: USERNAME_MIN_LENGTH (3) to USERNAME_MAX_LENGTH, the same rule on
 * the form and on the server.
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
