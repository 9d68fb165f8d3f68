import type { GuestSession } from '@raccolta/contracts';
import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../../lib/api-client';
import { openUploadLink } from '../api/guest-link';
import {
  forgetGuestSession,
  linkPassword,
  readGuestDetails,
  readGuestSession,
  rememberLinkPassword,
  saveGuestSession,
} from '../utils/guest-storage';

/** A stored guest token with less than this left is renewed before it is used. */
export const GUEST_TOKEN_MARGIN_MS = 2 * 60 * 1000;

/**
 * opening: asking the API; password: the link is protected (`error`: the last try was wrong or
 * refused); ready: the guest may upload; unavailable: unknown, disabled, expired or deleted (the
 * API answers all of them alike); failed: anything else (no connection, too many attempts).
 */
export type GuestLinkState =
  | { status: 'opening' }
  | { status: 'password'; error: unknown; submitting: boolean }
  | { status: 'ready'; session: GuestSession }
  | { status: 'unavailable' }
  | { status: 'failed'; error: unknown };

const isCode = (error: unknown, code: string) => isApiError(error) && error.errorCode === code;

function openWith(linkToken: string, password?: string): Promise<GuestSession> {
  const { guestId } = readGuestDetails();
  return openUploadLink(linkToken, {
    ...(guestId === undefined ? {} : { guestId }),
    ...(password === undefined ? {} : { password }),
  }).then((session) => {
    saveGuestSession(linkToken, session);
    if (password !== undefined) rememberLinkPassword(linkToken, password);
    return session;
  });
}

/**
 * The guest token of a link for the next request: the stored one while it lasts, else the link
 * opened again (with the password typed in this page, for a protected link).
 */
export async function guestToken(linkToken: string): Promise<string> {
  const stored = readGuestSession(linkToken, Date.now(), GUEST_TOKEN_MARGIN_MS);
  if (stored !== null) return stored.guestToken;
  return (await openWith(linkToken, linkPassword(linkToken))).guestToken;
}

/** Opens a guest's upload link and follows what its page shows. */
export function useGuestLink(linkToken: string) {
  // A stored session shows the page at once; a token about to run out is renewed by the first
  // request (guestToken), which may find the link now asks for its password (passwordNeeded).
  const [state, setState] = useState<GuestLinkState>(() => {
    const stored = readGuestSession(linkToken);
    return stored === null ? { status: 'opening' } : { status: 'ready', session: stored };
  });
  const [attempt, setAttempt] = useState(0);

  const settle = useCallback(
    (error: unknown, password: boolean) => {
      if (isCode(error, 'uploadLinkNotFound')) {
        forgetGuestSession(linkToken);
        setState({ status: 'unavailable' });
      } else if (isCode(error, 'uploadLinkPasswordRequired')) {
        setState({ status: 'password', error: null, submitting: false });
      } else if (password) {
        setState({ status: 'password', error, submitting: false });
      } else {
        setState({ status: 'failed', error });
      }
    },
    [linkToken],
  );

  useEffect(() => {
    if (state.status !== 'opening') return;
    let live = true;
    openWith(linkToken).then(
      (session) => {
        if (live) setState({ status: 'ready', session });
      },
      (error: unknown) => {
        if (live) settle(error, false);
      },
    );
    return () => {
      live = false;
    };
    // `attempt` opens it again after a failure.
  }, [linkToken, state.status, attempt, settle]);

  const submitPassword = (password: string) => {
    setState({ status: 'password', error: null, submitting: true });
    openWith(linkToken, password).then(
      (session) => setState({ status: 'ready', session }),
      (error: unknown) => settle(error, true),
    );
  };

  const retry = () => {
    setState({ status: 'opening' });
    setAttempt((n) => n + 1);
  };

  /** The link closed while the page was open (an upload or the list said so). */
  const closed = useCallback(() => {
    forgetGuestSession(linkToken);
    setState({ status: 'unavailable' });
  }, [linkToken]);

  /**
   * The guest token ran out and the link asks for its password again (a reload forgot the one
   * typed before): the password form, then the page as it was.
   */
  const passwordNeeded = useCallback(() => {
    forgetGuestSession(linkToken);
    setState({ status: 'password', error: null, submitting: false });
  }, [linkToken]);

  return { state, submitPassword, retry, closed, passwordNeeded };
}
