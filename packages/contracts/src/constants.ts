/**
 * Business constants of spec §9 and the value sets of §3/§4. PAGE_SIZE lives in pagination.ts.
 * Durations are in milliseconds unless the name says otherwise.
 */

// Value sets
export const MEMBER_ROLES = ['owner', 'admin', 'uploader', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Roles a member can be given by invitation or a role change; nobody becomes owner that way. */
export const ASSIGNABLE_ROLES = ['admin', 'uploader', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export const DEFAULT_INVITE_ROLE = 'uploader' satisfies AssignableRole;
export const INTERNAL_MEMBER_ROLE = 'uploader' satisfies AssignableRole;

export const MEMBER_STATUSES = [
  'active',
  'invited',
  'pending',
  'rejected',
  'left',
  'banned',
  'disabled',
] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Stored statuses plus the one computed from an expired invitation. */
export const DISPLAY_MEMBER_STATUSES = [...MEMBER_STATUSES, 'invitation_expired'] as const;
export type DisplayMemberStatus = (typeof DISPLAY_MEMBER_STATUSES)[number];

/** The spec says only "internal or other"; `standard` names every member who is not internal. */
export const MEMBER_TYPES = ['internal', 'standard'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

export const USER_SCOPES = ['global', 'team'] as const;
export type UserScope = (typeof USER_SCOPES)[number];
export const CREATE_TEAM_SCOPE = 'global' satisfies UserScope;

export const TEAM_MODES = ['collaborative', 'controlled'] as const;
export type TeamMode = (typeof TEAM_MODES)[number];
/** The create-team checkbox starts checked. */
export const DEFAULT_TEAM_MODE = 'collaborative' satisfies TeamMode;

export const COLLECTION_MODES = ['owned', 'collaborative'] as const;
export type CollectionMode = (typeof COLLECTION_MODES)[number];

export const COLLECTION_VIEWS = ['all', 'collaborative'] as const;
export type CollectionView = (typeof COLLECTION_VIEWS)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const DEFAULT_SORT_DIRECTION = 'desc' satisfies SortDirection;

export const LOCALES = ['en', 'it'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE = 'en' satisfies Locale;

export const PLANS = ['free', 'pro', 'premium'] as const;
export type Plan = (typeof PLANS)[number];
export const DEFAULT_PLAN = 'free' satisfies Plan;
/** Defaults only: the running limits come from configuration (docs/decisions.md). */
export const DEFAULT_PLAN_ALIAS_LIMITS = { free: 1, pro: 3, premium: 10 } as const satisfies Record<
  Plan,
  number
>;
export const FILE_ENCRYPTION_PLANS = ['premium'] as const satisfies readonly Plan[];

export const FEATURE_FLAGS = ['lang-switcher', 'query-dev'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

// Field limits
export const ALIAS_MIN_LENGTH = 3;
export const ALIAS_MAX_LENGTH = 30;
export const TEAM_NAME_MIN_LENGTH = 2;
export const TEAM_NAME_MAX_LENGTH = 50;
export const COLLECTION_NAME_MIN_LENGTH = 2;
export const COLLECTION_NAME_MAX_LENGTH = 50;
export const DESCRIPTION_MAX_LENGTH = 250;
export const NICKNAME_MIN_LENGTH = 2;
export const NICKNAME_MAX_LENGTH = 30;
export const PREFERRED_NAME_MAX_LENGTH = 30;
/** Spec §5 gives 2 for the form and 3 for the server; one rule, the server's reading. */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 50;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 100;
/** Not in the spec: the longest address RFC 5321 allows, so the API cannot be fed megabytes. */
export const EMAIL_MAX_LENGTH = 254;
/** Not in the spec: a bound for first and last names, so the API stores no unbounded text. */
export const PERSON_NAME_MAX_LENGTH = 50;
export const NEWSLETTER_MIN_AGE = 16;
/**
 * The versions of the legal texts in force (spec §2: both first dated 2025-03-05; the privacy
 * policy of 2026-11-27 says that originals keep their GPS position and how a team removes it, and
 * that scrolling while the cookie banner shows accepts analytics; that of 2026-11-28 what a
 * session and a second factor record, and for how long). The subscribe form sends them;
 * the server records which versions an address accepted.
 */
export const LEGAL_VERSIONS = { terms: '2025-03-05', privacy: '2026-11-28' } as const;
export type LegalDocument = keyof typeof LEGAL_VERSIONS;
export const TAGS_SHOWN_MAX = 5;

// Timings
export const MEMBER_SEARCH_DEBOUNCE_MS = 500;
export const DOWNLOAD_POLL_INTERVAL_MS = 5000;
export const REFETCH_TOAST_MIN_MS = 500;
export const PREPARING_DOWNLOAD_TOAST_MS = 6000;
export const SNACKBAR_DURATION_MS = 4000;
export const ERROR_TOAST_AUTO_HIDE_MS = 5000;
export const PROVIDER_REDIRECT_DELAY_MS = 100;
export const ACCEPT_REDIRECT_DELAY_MS = 1000;
export const TOKEN_REFRESH_THRESHOLD_MS = 5 * 60 * 1000;
export const TOKEN_PROACTIVE_REFRESH_THRESHOLD_MS = 15 * 60 * 1000;
export const GUEST_CREDENTIALS_REUSE_MS = 50 * 60 * 1000;
export const UNSUBSCRIBED_EMAIL_RETENTION_DAYS = 5;

// Layout
export const MEMBERS_PANEL_WIDTH_PX = 250;

// Consent and analytics
export const CONSENT_COOKIE_MAX_AGE_DAYS = 365;
export const CONSENT_ACCEPT_ON_SCROLL_PERCENTAGE = 25;
export const ANALYTICS_SETTINGS = {
  anonymizeIp: true,
  allowAdSignals: false,
  requiresConsent: true,
} as const;

// OAuth
export const OAUTH_SCOPES = ['email', 'openid', 'profile'] as const;
export const OAUTH_RESPONSE_TYPE = 'code';
export const OAUTH_CODE_CHALLENGE_METHOD = 'S256';
export const OAUTH_VERIFIER_LENGTH = 128;
export const OAUTH_STATE_LENGTH = 32;

// Other
export const DEFAULT_LOG_LEVEL = 'error';
/** The spec lists these as included; the web app may have more namespaces. */
export const TRANSLATION_NAMESPACES = ['actions', 'roles', 'status'] as const;
