import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** The mark the preview's history entry carries in its state. */
const PREVIEW_STATE_KEY = 'filePreview';

function isPreviewEntry(state: unknown): boolean {
  return typeof state === 'object' && state !== null && PREVIEW_STATE_KEY in state;
}

/**
 * The open preview as a history entry of its own: opening it pushes one (same address), so Back,
 * a phone's back gesture included, closes the preview and stays in the collection; moving to
 * another file inside the preview adds none, so one Back always suffices. Closing it with its own
 * button goes back over that entry, so the entry never lingers. `onClosed` runs however it closed.
 */
export function usePreviewHistory<T>(onClosed: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const [item, setItem] = useState<T | null>(null);
  const onEntry = isPreviewEntry(location.state);
  // Shown only while the history is on the preview's entry: Back hides it.
  const shown = onEntry ? item : null;

  // An entry left by a reload (no preview is open any more): replaced, so Back leaves the screen.
  const arrivedOnEntry = useRef(onEntry);
  useEffect(() => {
    if (arrivedOnEntry.current) {
      void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    }
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const wasShown = useRef(false);
  useEffect(() => {
    if (wasShown.current && shown === null) onClosed();
    wasShown.current = shown !== null;
  }, [shown, onClosed]);

  const open = useCallback(
    (next: T) => {
      setItem(next);
      if (!onEntry) {
        void navigate(`${location.pathname}${location.search}`, {
          state: { [PREVIEW_STATE_KEY]: true },
        });
      }
    },
    [navigate, location.pathname, location.search, onEntry],
  );
  const close = useCallback(() => {
    if (onEntry) void navigate(-1);
  }, [navigate, onEntry]);

  return { shown, open, move: setItem, close };
}
