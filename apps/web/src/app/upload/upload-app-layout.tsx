import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { ScrollToTop } from '../../components/scroll-to-top';
import { AppLogo } from '../../components/layout/app-logo';
import { mainContentProps, SkipLink } from '../../components/layout/skip-link';
import { ThemeToggle } from '../../components/layout/theme-toggle';
import { preloadSnackbarView } from '../../components/snackbar';
import { useSession } from '../../lib/auth/session/session-context';
import { ConsentBanner } from '../../features/consent/components/consent-banner';
import {
  ConsentResetButton,
  preloadConsentResetButton,
} from '../../features/consent/components/consent-reset-button';
import { useReachabilityWatch } from '../../features/upload-app/hooks/use-online-status';
import { registerOfflineShell } from '../../features/upload-app/utils/offline-shell';
import { UPLOAD_APP_PATH } from '../../lib/upload-paths';
import { OfflineNotice } from '../../features/upload-app/components/offline-notice';
import { UploadAppMenu } from '../../features/upload-app/components/upload-app-menu';
import { UploadAppTheme } from '../../features/upload-app/components/upload-app-theme';

/** The team app's page for where the upload app is: the same team or collection, else the teams. */
export function teamAppPathFor(pathname: string): string {
  const match = /^\/upload\/teams\/([^/]+)(?:\/collections\/([^/]+))?\/?$/.exec(pathname);
  if (match?.[1] === undefined) return '/teams';
  const team = `/teams/${match[1]}`;
  return match[2] === undefined ? team : `${team}/collections/${match[2]}`;
}

/**
 * The upload app's frame (/upload/*): a compact bar for phones and the offline notice. The upload
 * queues live above the router (UploadQueuesProvider), so leaving this frame stops nothing.
 */
export function UploadAppLayout() {
  const { t } = useTranslation();
  const { status } = useSession();
  const { pathname } = useLocation();

  useEffect(() => {
    // Once the page has started: the message bar and the cookie button (they come when first
    // shown; fetched first, the offline cache keeps them), then the offline copy.
    registerOfflineShell(() => Promise.all([preloadSnackbarView(), preloadConsentResetButton()]));
  }, []);
  useReachabilityWatch();

  return (
    <UploadAppTheme>
      <ScrollToTop />
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
        <SkipLink />
        <ConsentBanner />
        <AppBar
          position="sticky"
          color="default"
          elevation={0}
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          <Toolbar sx={{ gap: 1 }}>
            <AppLogo to={UPLOAD_APP_PATH} label={t('uploadApp.home')} />
            <Typography component="span" variant="h6" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
              {t('uploadApp.title')}
            </Typography>
            <ThemeToggle />
            {status === 'signedIn' && <UploadAppMenu teamAppPath={teamAppPathFor(pathname)} />}
          </Toolbar>
        </AppBar>
        <OfflineNotice />
        <Box
          component="main"
          {...mainContentProps}
          sx={{ ...mainContentProps.sx, flex: 1, display: 'flex', flexDirection: 'column' }}
        >
          <Outlet />
        </Box>
        <ConsentResetButton reserveSpace />
      </Box>
    </UploadAppTheme>
  );
}
