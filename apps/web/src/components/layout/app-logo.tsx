import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

const LOGO_URL = `${import.meta.env.BASE_URL}logo.svg`;

/** The header logo: home for visitors, the team chooser for signed-in users (spec §2). */
export function AppLogo({ to = '/', label }: { to?: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <Box
      component={RouterLink}
      to={to}
      aria-label={label ?? t('header.home')}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        color: 'inherit',
        textDecoration: 'none',
        minWidth: 0,
        borderRadius: 1,
      }}
    >
      <Box component="img" src={LOGO_URL} alt={t('common.logoAlt')} width={32} height={32} />
      <Typography
        component="span"
        variant="h6"
        noWrap
        sx={{ fontWeight: 700, display: { xs: 'none', sm: 'inline' } }}
      >
        {t('common.appName')}
      </Typography>
    </Box>
  );
}
