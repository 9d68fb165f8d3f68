import { CONSENT_ACCEPT_ON_SCROLL_PERCENTAGE } from '@raccolta/contracts';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
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
        py: { xs: 1.5, sm: 2 },
      })}
    >
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={{ xs: 1.5, md: 3 }}
        sx={{ maxWidth: 'lg', mx: 'auto', alignItems: { md: 'center' } }}
      >
        <Stack spacing={0.5} sx={{ flex: 1 }}>
          <Typography id={titleId} component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('consent.title')}
          </Typography>
          <Typography variant="body2">
            <RichText text={t('consent.text')} components={{ privacy: <PrivacyLink /> }} />
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1.5} sx={{ flexShrink: 0 }}>
          <Button
            variant="outlined"
            color="inherit"
            onClick={() => setConsent(false)}
            sx={{ flex: { xs: 1, md: 'none' } }}
          >
            {t('consent.decline')}
          </Button>
          <Button
            variant="contained"
            disableElevation
            onClick={() => setConsent(true)}
            sx={{ flex: { xs: 1, md: 'none' } }}
          >
            {t('consent.accept')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
