import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/**
 * The page's last lines. On a phone, where its links are stacked under the copyright and reach the
 * right edge, it keeps room below them for the cookie button, which floats over the end of the
 * page (ConsentResetButton): 40 px, 16 px from the bottom, and a margin.
 */
export function AppFooter() {
  const { t } = useTranslation();
  return (
    <Box
      component="footer"
      sx={{ pt: 3, pb: { xs: 9, sm: 3 }, px: 2, borderTop: 1, borderColor: 'divider' }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 1, sm: 3 }}
        sx={{ alignItems: 'center', justifyContent: 'center' }}
      >
        <Typography variant="body2" color="text.secondary">
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </Typography>
        <Stack component="nav" direction="row" spacing={3} aria-label={t('legal.footer.label')}>
          <Link component={RouterLink} to="/terms" variant="body2">
            {t('legal.footer.terms')}
          </Link>
          <Link component={RouterLink} to="/privacy" variant="body2">
            {t('legal.footer.privacy')}
          </Link>
        </Stack>
      </Stack>
    </Box>
  );
}
