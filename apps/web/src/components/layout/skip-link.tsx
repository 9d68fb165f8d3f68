import Link from '@mui/material/Link';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The id of each layout's `<main>`, which the skip link moves to. */
export const MAIN_CONTENT_ID = 'main-content';

/** Props for a layout's `<main>`: the skip link's target, focusable by script only. */
export const mainContentProps = {
  id: MAIN_CONTENT_ID,
  tabIndex: -1,
  // Focus lands here from the skip link; the whole page outlined would only distract.
  sx: { '&:focus': { outline: 'none' } },
} as const;

/**
 * "Skip to content": the first thing Tab reaches on every page (WCAG 2.4.1), hidden until it has
 * the focus, then shown at the top left over the page. It moves the focus to the page's `<main>`,
 * past the cookie banner and the header, without changing the address (a `#main-content` in the
 * URL would be a new history entry).
 */
export function SkipLink() {
  const { t } = useTranslation();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (main === null) return;
    main.focus({ preventScroll: true });
    main.scrollIntoView({ block: 'start' });
  };
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      variant="body1"
      sx={(theme) => ({
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        boxShadow: 4,
        fontWeight: 600,
        // Out of sight, yet focusable (not display: none), until the keyboard reaches it.
        transform: 'translateY(calc(-100% - 16px))',
        '&:focus': { transform: 'none', outline: 2, outlineColor: 'primary.main' },
      })}
    >
      {t('header.skipToContent')}
    </Link>
  );
}
