import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SubscribeForm } from '../../newsletter/components/subscribe-form';
import { LandingLanguageSwitcher } from './landing-language-switcher';

/**
 * Spec §2: title, subtitle and the newsletter form, one column. The language switcher of the
 * lang-switcher flag sits in the column's top padding, out of the flow, so the heading stays where
 * index.html painted it before the app started (src/boot/).
 */
export function LandingPage() {
  const { t } = useTranslation();
  return (
    <Container
      maxWidth="md"
      sx={{ position: 'relative', py: { xs: 6, sm: 12 }, textAlign: 'center' }}
    >
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
      <Paper
        variant="outlined"
        sx={{
          mt: { xs: 5, sm: 8 },
          mx: 'auto',
          maxWidth: 480,
          p: { xs: 2.5, sm: 4 },
          textAlign: 'start',
        }}
      >
        <SubscribeForm />
      </Paper>
    </Container>
  );
}
