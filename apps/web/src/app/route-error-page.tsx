import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title';

/**
 * A page's code that did not arrive: a dropped connection, or a new release whose build no longer
 * has the old chunks. Browsers word it differently (Chromium, Firefox, Safari).
 */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
      error.message,
    )
  );
}

/**
 * What a route shows when its page cannot be loaded or throws while rendering: what happened in
 * words a person can act on, a reload (which fetches the current release) and a way home — never
 * the router's developer page.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routeError.title'));
  const error = useRouteError();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 6, sm: 10 }, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('routeError.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {isChunkLoadError(error) ? t('routeError.loadText') : t('routeError.text')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} justifyContent="center">
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
        {/* A full load: the router that failed is not asked to navigate. */}
        <Button variant="outlined" href="/">
          {t('actions.backHome')}
        </Button>
      </Stack>
    </Container>
  );
}
