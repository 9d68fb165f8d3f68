import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { withPageNeeds } from '../../lib/page-needs';
import { useSession } from '../../lib/auth/session/session-context';
import { AppLogo } from '../../components/layout/app-logo';
import { ThemeToggle } from '../../components/layout/theme-toggle';

// Only signed-in people see these menus: a visitor's first page does not download them.
const SelectedTeamMenu = lazy(
  withPageNeeds(() =>
    import('../../features/teams/components/team-menu').then((m) => ({
      default: m.SelectedTeamMenu,
    })),
  ),
);
const UserMenu = lazy(
  withPageNeeds(() =>
    import('../../features/auth/components/user-menu').then((m) => ({ default: m.UserMenu })),
  ),
);

function isAuthPath(pathname: string): boolean {
  return pathname === '/auth' || pathname.startsWith('/auth/');
}

export function AppHeader() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { status } = useSession();
  const signedIn = status === 'signedIn';
  const showAuthButtons = !signedIn && !isAuthPath(pathname);

  return (
    <AppBar
      position="sticky"
      color="default"
      elevation={0}
      sx={{ borderBottom: 1, borderColor: 'divider' }}
    >
      <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
        {signedIn ? <AppLogo to="/switch-team" label={t('header.switchTeam')} /> : <AppLogo />}
        {signedIn && (
          <Suspense fallback={null}>
            <SelectedTeamMenu />
          </Suspense>
        )}
        <Box sx={{ flexGrow: 1 }} />
        {showAuthButtons && (
          <>
            <Button component={RouterLink} to="/auth/signin" color="inherit">
              {t('actions.signIn')}
            </Button>
            <Button component={RouterLink} to="/auth/signup" variant="contained" disableElevation>
              {t('actions.signUp')}
            </Button>
          </>
        )}
        <ThemeToggle />
        {signedIn && (
          <Suspense fallback={null}>
            <UserMenu />
          </Suspense>
        )}
      </Toolbar>
    </AppBar>
  );
}
