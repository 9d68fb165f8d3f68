import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { UserMenu, useSession } from '../../features/auth';
import { SelectedTeamMenu } from '../../features/teams';
import { AppLogo } from './app-logo';
import { ThemeToggle } from './theme-toggle';

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
        {signedIn && <SelectedTeamMenu />}
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
        {signedIn && <UserMenu />}
      </Toolbar>
    </AppBar>
  );
}
