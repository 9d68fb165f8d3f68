import Box from '@mui/material/Box';
import { Outlet, useLocation } from 'react-router';
import { ConsentBanner } from '../../features/consent/components/consent-banner';
import { ConsentResetButton } from '../../features/consent/components/consent-reset-button';
import { AppFooter } from '../../components/layout/app-footer';
import { AppHeader } from './app-header';
import { mainContentProps, SkipLink } from '../../components/layout/skip-link';

// Spec §2: the profile page is the one page without the footer.
const PATHS_WITHOUT_FOOTER = new Set(['/profile']);

export function AppLayout() {
  const { pathname } = useLocation();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <SkipLink />
      <ConsentBanner />
      <AppHeader />
      <Box
        component="main"
        {...mainContentProps}
        sx={{ ...mainContentProps.sx, flex: 1, display: 'flex', flexDirection: 'column' }}
      >
        <Outlet />
      </Box>
      {!PATHS_WITHOUT_FOOTER.has(pathname) && <AppFooter />}
      <ConsentResetButton reserveSpace={PATHS_WITHOUT_FOOTER.has(pathname)} />
    </Box>
  );
}
