import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';
import { preloadable } from '../../../lib/preloadable';
import { useConsent } from '../hooks/use-consent';

/** The button comes once a choice exists: a first visit, which shows the banner, does without. */
const { Component: ConsentResetFab, preload: preloadConsentResetButton } = preloadable(
  () => import('./consent-reset-fab'),
);

export { preloadConsentResetButton };

/** Room kept at the end of a page without a footer: the button's 40 px and its 16 px margins. */
const RESERVED_HEIGHT = 72;
/**
 * How much of that room must be in view before the button comes: all of it but a few pixels
 * (fractional scroll positions), so the button lands in the room and never over the page's last
 * lines. At the first pixel it would cover the text above the room (the profile's Sessions at
 * 375 px).
 */
const RESERVED_IN_VIEW = 0.95;

/**
 * The floating button at the bottom right that forgets the cookie choice and reloads (spec §2).
 * It floats over the end of the page only (the footer, or the room it keeps itself where a page
 * has no footer, once that room is wholly in view), so it never covers a page's controls or its sticky bars while the page scrolls;
 * elsewhere it waits below the screen's edge and slides in when it gets keyboard focus. Mount it
 * as the last child of a layout's flex column. Shown once a choice exists: before, the banner asks.
 */
export function ConsentResetButton({ reserveSpace = false }: { reserveSpace?: boolean }) {
  const consent = useConsent();
  const end = useRef<HTMLDivElement>(null);
  // Without IntersectionObserver (old engines) the button simply stays in view.
  const observable = typeof IntersectionObserver !== 'undefined';
  const [atEnd, setAtEnd] = useState(!observable);
  const shown = consent !== null;

  useEffect(() => {
    const target = end.current;
    if (!shown || target === null) return;
    if (!observable) return;
    const threshold = reserveSpace ? RESERVED_IN_VIEW : 0;
    const observer = new IntersectionObserver(
      ([entry]) =>
        setAtEnd(
          entry !== undefined && entry.isIntersecting && entry.intersectionRatio >= threshold,
        ),
      { threshold },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [shown, observable, reserveSpace]);

  if (!shown) return null;
  return (
    <>
      <Box
        ref={end}
        aria-hidden
        sx={{ height: reserveSpace ? RESERVED_HEIGHT : 0, minHeight: 1, flexShrink: 0 }}
      />
      <ConsentResetFab atEnd={atEnd} />
    </>
  );
}
