import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export function AppFooter() {
  const { t } = useTranslation();
  return (
    <Box
      component="footer"
      sx={{ py: 3, px: 2, borderTop: 1, borderColor: 'divider', textAlign: 'center' }}
    >
      <Typography variant="body2" color="text.secondary">
        {t('footer.copyright', { year: new Date().getFullYear() })}
      </Typography>
    </Box>
  );
}
