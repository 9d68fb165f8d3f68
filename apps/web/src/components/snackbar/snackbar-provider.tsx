import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { preloadable } from '../../lib/preloadable';
import {
  SNACKBAR_DURATION_MS,
  SnackbarContext,
  type SnackbarApi,
  type SnackbarOptions,
  type SnackbarSeverity,
} from './snackbar-context';
import type { Message, SnackbarCloseReason } from './snackbar-view';

/**
 * The bar itself (MUI's Snackbar, its transition and Alert) arrives with the first message, not
 * with the first page: most visits never show one.
 */
const { Component: SnackbarView, preload } = preloadable(() => import('./snackbar-view'));

/** Fetches the bar ahead of its first message (the upload app keeps it for offline use). */
export const preloadSnackbarView = preload;

interface SnackbarState {
  shown: Message | null;
  open: boolean;
  /** Messages kept until closed that a newer one covered; the last one comes back first. */
  held: Message[];
}

const EMPTY: SnackbarState = { shown: null, open: false, held: [] };

const staysUntilClosed = (message: Message) => message.autoHideDuration === null;

/**
 * One message at a time at the bottom centre (spec §2); a new message replaces the shown one.
 * A replaced message that stays until closed (news the user has to act on, such as a download
 * that is ready) waits behind the new one and comes back once it closes.
 */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SnackbarState>(EMPTY);
  const nextId = useRef(0);

  const show = useCallback(
    (text: string, severity: SnackbarSeverity = 'info', options: SnackbarOptions = {}) => {
      nextId.current += 1;
      const message: Message = {
        id: nextId.current,
        text,
        severity,
        autoHideDuration:
          options.autoHideDuration === undefined ? SNACKBAR_DURATION_MS : options.autoHideDuration,
        action: options.action,
        key: options.key,
      };
      setState((previous) => {
        const sameKey = (other: Message) => message.key !== undefined && other.key === message.key;
        const held = previous.held.filter((other) => !sameKey(other));
        const covered = previous.shown;
        if (previous.open && covered !== null && staysUntilClosed(covered) && !sameKey(covered)) {
          held.push(covered);
        }
        return { shown: message, open: true, held };
      });
    },
    [],
  );

  const handleClose = useCallback((reason?: SnackbarCloseReason) => {
    // A click elsewhere on the page should not dismiss an error the user has not read yet.
    if (reason === 'clickaway') return;
    setState((previous) => ({ ...previous, open: false }));
  }, []);

  // Once the closed message has left the screen, the one it covered comes back.
  const handleExited = useCallback(() => {
    setState((previous) => {
      const next = previous.held.at(-1);
      if (previous.open || next === undefined) return previous;
      return { shown: next, open: true, held: previous.held.slice(0, -1) };
    });
  }, []);

  const api = useMemo<SnackbarApi>(() => ({ show }), [show]);

  return (
    <SnackbarContext value={api}>
      {children}
      {state.shown !== null && (
        <SnackbarView
          message={state.shown}
          open={state.open}
          onClose={handleClose}
          onExited={handleExited}
        />
      )}
    </SnackbarContext>
  );
}
