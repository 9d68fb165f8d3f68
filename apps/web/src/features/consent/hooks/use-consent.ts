import { useSyncExternalStore } from 'react';
import {
  clearedConsentCookie,
  consentCookie,
  readConsent,
  type ConsentChoice,
} from '../utils/consent-cookie';

const listeners = new Set<() => void>();

const isHttps = () => window.location.protocol === 'https:';

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = (): ConsentChoice => readConsent(document.cookie);

/** Remembers the visitor's choice in the consent cookie; every banner and button follows it. */
export function setConsent(accepted: boolean): void {
  document.cookie = consentCookie(accepted, isHttps());
  for (const listener of listeners) listener();
}

/**
 * Forgets the choice and reloads the page (spec §2), so analytics that may have started are gone
 * and the banner asks again.
 */
export function resetConsent(): void {
  document.cookie = clearedConsentCookie(isHttps());
  window.location.reload();
}

/** The visitor's choice: true accepted, false declined, null not chosen yet. */
export function useConsent(): ConsentChoice {
  return useSyncExternalStore(subscribe, snapshot, () => null);
}
