import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LandingLanguageSwitcher } from './landing-language-switcher';

export function LandingPage() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 6, sm: 12 }, textAlign: 'center' }}>
      <LandingLanguageSwitcher />
      <Typography
        variant="h3"
        component="h1"
        gutterBottom
        sx={{ fontWeight: 700, fontSize: { xs: '2rem', sm: '3rem' } }}
      >
        {t('landing.title')}
      </Typography>
      <Typography variant="h6" component="p" color="text.secondary" sx={{ fontWeight: 400 }}>
        {t('landing.subtitle')}
      </Typography>
    </Container>
  );
}
