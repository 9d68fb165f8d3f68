import { CONSENT_ACCEPT_ON_SCROLL_PERCENTAGE } from '@raccolta/contracts';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import { useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { RichText } from '../../../components/rich-text';
import { useAnalytics } from '../analytics/use-analytics';
import { setConsent, useConsent } from '../hooks/use-consent';
import { scrolledPercentage } from '../utils/consent-cookie';

function PrivacyLink({ children }: { children?: ReactNode }) {
  // A new tab, so reading the policy does not lose the page the visitor is on.
  return (
    <Link component={RouterLink} to="/privacy" target="_blank" rel="noopener">
      {children}
    </Link>
  );
}

/** Scrolling a quarter of the page down counts as accepting (spec §9). */
function useAcceptOnScroll(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onScroll = () => {
      const root = document.documentElement;
      const scrolled = scrolledPercentage(root.scrollTop, root.scrollHeight, root.clientHeight);
      if (scrolled >= CONSENT_ACCEPT_ON_SCROLL_PERCENTAGE) setConsent(true);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [active]);
}

/**
 * Phones get the compact banner, which leaves the page's first screen to the page: its buttons
 * have the small size's padding and type there. Written in CSS, not with a media query in script:
 * the landing page's first load has no room for useMediaQuery's code (shell.spec.ts, 200 KB).
 */
const COMPACT_ON_PHONES = {
  px: { xs: 1.25, sm: 2 },
  py: { xs: 0.5, sm: 0.75 },
  fontSize: { xs: '0.8125rem', sm: '0.875rem' },
} as const;

/**
 * The cookie banner, shown while the visitor has not chosen; it also starts analytics once the
 * choice is to accept. Mount it as the first child of a layout's flex column: it comes first in
 * the keyboard order (reached before the header), while `order` draws it last and `sticky` keeps
 * it at the bottom of the screen, taking its own room at the end of the page so that it never
 * hides the page's last controls.
 */
export function ConsentBanner() {
  const { t } = useTranslation();
  const consent = useConsent();
  const titleId = useId();
  useAnalytics();
  useAcceptOnScroll(consent === null);
  if (consent !== null) return null;

  return (
    <Paper
      component="section"
      role="region"
      aria-labelledby={titleId}
      square
      elevation={8}
      sx={(theme) => ({
        order: 1,
        position: 'sticky',
        bottom: 0,
        // Above the page and its sticky bars, below dialogs and snackbars.
        zIndex: theme.zIndex.appBar + 1,
        borderTop: 1,
        borderColor: 'divider',
        px: { xs: 2, sm: 3 },
        py: { xs: 1, sm: 1.5 },
      })}
    >
      <Stack
        direction={{ xs: 'row', sm: 'column', md: 'row' }}
        spacing={{ xs: 1.5, md: 3 }}
        sx={{
          maxWidth: 'lg',
          mx: 'auto',
          alignItems: { xs: 'center', sm: 'stretch', md: 'center' },
        }}
      >
        <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
          {/* On a phone the title only names the region: the compact text says what matters. */}
          <Typography
            id={titleId}
            component="h2"
            variant="subtitle1"
            sx={{ fontWeight: 600, display: { xs: 'none', sm: 'block' } }}
          >
            {t('consent.title')}
          </Typography>
          {/*
            Scrolling accepts (spec §9), so the banner says so in bold: after the full text on
            wider screens, first on a phone, where only a short line and the policy link follow.
          */}
          <Typography variant="body2">
            <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
              <RichText text={t('consent.text')} components={{ privacy: <PrivacyLink /> }} />{' '}
            </Box>
            <Box component="strong" sx={{ fontWeight: 600 }}>
              {t('consent.scrollNotice')}
            </Box>
            <Box component="span" sx={{ display: { sm: 'none' } }}>
              {' '}
              <RichText text={t('consent.compactText')} components={{ privacy: <PrivacyLink /> }} />
            </Box>
          </Typography>
        </Stack>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={{ xs: 1, sm: 1.5 }}
          sx={{ flexShrink: 0 }}
        >
          <Button
            variant="outlined"
            color="inherit"
            onClick={() => setConsent(false)}
            sx={{ flex: { sm: 1, md: 'none' }, ...COMPACT_ON_PHONES }}
          >
            {t('consent.decline')}
          </Button>
          <Button
            variant="contained"
            disableElevation
            onClick={() => setConsent(true)}
            sx={{ flex: { sm: 1, md: 'none' }, ...COMPACT_ON_PHONES }}
          >
            {t('consent.accept')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
