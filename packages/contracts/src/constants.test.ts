import { describe, expect, it } from 'vitest';
import * as c from './constants.js';
import { PAGE_SIZE } from './pagination.js';

const MINUTE = 60 * 1000;

describe('spec §9 constants', () => {
  it.each([
    ['alias length 3 to 30', [c.ALIAS_MIN_LENGTH, c.ALIAS_MAX_LENGTH], [3, 30]],
    ['team name 2 to 50', [c.TEAM_NAME_MIN_LENGTH, c.TEAM_NAME_MAX_LENGTH], [2, 50]],
    [
      'collection name 2 to 50',
      [c.COLLECTION_NAME_MIN_LENGTH, c.COLLECTION_NAME_MAX_LENGTH],
      [2, 50],
    ],
    ['descriptions max 250', [c.DESCRIPTION_MAX_LENGTH], [250]],
    ['nickname 2 to 30', [c.NICKNAME_MIN_LENGTH, c.NICKNAME_MAX_LENGTH], [2, 30]],
    ['preferred name max 30', [c.PREFERRED_NAME_MAX_LENGTH], [30]],
    ['username 3 to 50', [c.USERNAME_MIN_LENGTH, c.USERNAME_MAX_LENGTH], [3, 50]],
    ['password 8 to 100', [c.PASSWORD_MIN_LENGTH, c.PASSWORD_MAX_LENGTH], [8, 100]],
    ['newsletter minimum age 16', [c.NEWSLETTER_MIN_AGE], [16]],
    ['page size 20', [PAGE_SIZE], [20]],
    ['member search debounce 500 ms', [c.MEMBER_SEARCH_DEBOUNCE_MS], [500]],
    ['download polling 5000 ms', [c.DOWNLOAD_POLL_INTERVAL_MS], [5000]],
    ['refetch toast minimum 500 ms', [c.REFETCH_TOAST_MIN_MS], [500]],
    ['preparing-download toast 6000 ms', [c.PREPARING_DOWNLOAD_TOAST_MS], [6000]],
    ['snackbar default 4000 ms', [c.SNACKBAR_DURATION_MS], [4000]],
    ['error toast auto-hide 5000 ms', [c.ERROR_TOAST_AUTO_HIDE_MS], [5000]],
    ['provider redirect delay 100 ms', [c.PROVIDER_REDIRECT_DELAY_MS], [100]],
    ['accept redirect delay 1000 ms', [c.ACCEPT_REDIRECT_DELAY_MS], [1000]],
    ['members panel width 250 px', [c.MEMBERS_PANEL_WIDTH_PX], [250]],
    ['tags shown up to 5', [c.TAGS_SHOWN_MAX], [5]],
    [
      'token refresh under 5 min, proactive under 15 min',
      [c.TOKEN_REFRESH_THRESHOLD_MS, c.TOKEN_PROACTIVE_REFRESH_THRESHOLD_MS],
      [5 * MINUTE, 15 * MINUTE],
    ],
    [
      'consent cookie 365 days, accept on scroll 25%',
      [c.CONSENT_COOKIE_MAX_AGE_DAYS, c.CONSENT_ACCEPT_ON_SCROLL_PERCENTAGE],
      [365, 25],
    ],
    ['guest credentials reuse 50 minutes', [c.GUEST_CREDENTIALS_REUSE_MS], [50 * MINUTE]],
    ['OAuth verifier 128, state 32', [c.OAUTH_VERIFIER_LENGTH, c.OAUTH_STATE_LENGTH], [128, 32]],
    ['unsubscribed e-mails deleted within 5 days', [c.UNSUBSCRIBED_EMAIL_RETENTION_DAYS], [5]],
  ] as const)('%s', (_item, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it('OAuth: scopes email, openid, profile; code with PKCE S256', () => {
    expect(c.OAUTH_SCOPES).toEqual(['email', 'openid', 'profile']);
    expect([c.OAUTH_RESPONSE_TYPE, c.OAUTH_CODE_CHALLENGE_METHOD]).toEqual(['code', 'S256']);
  });
  it('analytics: IP anonymised, no ad signals, only after consent', () => {
    expect(c.ANALYTICS_SETTINGS).toEqual({
      anonymizeIp: true,
      allowAdSignals: false,
      requiresConsent: true,
    });
  });
  it('log level error; languages en (default) and it; sort default desc', () => {
    expect(c.DEFAULT_LOG_LEVEL).toBe('error');
    expect(c.LOCALES).toEqual(['en', 'it']);
    expect(c.DEFAULT_LOCALE).toBe('en');
    expect(c.DEFAULT_SORT_DIRECTION).toBe('desc');
  });
  it('aliases per team by plan (docs/decisions.md); encryption for premium only', () => {
    expect(c.PLANS).toEqual(['free', 'pro', 'premium']);
    expect(c.DEFAULT_PLAN_ALIAS_LIMITS).toEqual({ free: 1, pro: 3, premium: 10 });
    expect(c.FILE_ENCRYPTION_PLANS).toEqual(['premium']);
  });
  it('creating a team needs the global scope', () => {
    expect(c.CREATE_TEAM_SCOPE).toBe('global');
  });
  it('translation namespaces include actions, roles, status', () => {
    expect(c.TRANSLATION_NAMESPACES).toEqual(
      expect.arrayContaining(['actions', 'roles', 'status']),
    );
  });
});

describe('value sets of §3 and §4', () => {
  it('roles, assignable roles and member defaults', () => {
    expect(c.MEMBER_ROLES).toEqual(['owner', 'admin', 'uploader', 'viewer']);
    expect(c.ASSIGNABLE_ROLES).toEqual(['admin', 'uploader', 'viewer']);
    expect(c.DEFAULT_INVITE_ROLE).toBe('uploader');
    expect(c.INTERNAL_MEMBER_ROLE).toBe('uploader');
  });
  it('member statuses, with invitation_expired only derived', () => {
    expect(c.MEMBER_STATUSES).toEqual([
      'active',
      'invited',
      'pending',
      'rejected',
      'left',
      'banned',
      'disabled',
    ]);
    expect(c.DISPLAY_MEMBER_STATUSES).toEqual([...c.MEMBER_STATUSES, 'invitation_expired']);
  });
  it('modes, views and scopes', () => {
    expect(c.TEAM_MODES).toEqual(['collaborative', 'controlled']);
    expect(c.DEFAULT_TEAM_MODE).toBe('collaborative');
    expect(c.COLLECTION_MODES).toEqual(['owned', 'collaborative']);
    expect(c.COLLECTION_VIEWS).toEqual(['all', 'collaborative']);
    expect(c.SORT_DIRECTIONS).toEqual(['asc', 'desc']);
    expect(c.USER_SCOPES).toEqual(['global', 'team']);
    expect(c.FEATURE_FLAGS).toEqual(['lang-switcher', 'query-dev']);
  });
});
