import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LandingLanguageSwitcher } from './landing-language-switcher';

/**
 * Spec §2: title, subtitle and the newsletter form, one column. The language switcher of the
 * lang-switcher flag sits in the column's top padding, out of the flow, so the heading stays where
 * index.html painted it before the app started (src/boot/). The app layer passes the newsletter
 * form in, so the landing feature imports no other feature.
 */
export function LandingPage({ newsletter }: { newsletter: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Container
      maxWidth="md"
      sx={{
        position: 'relative',
        pt: { xs: 5, sm: 6 },
        pb: { xs: 3, sm: 12 },
        textAlign: 'center',
      }}
    >
      <LandingLanguageSwitcher />
      <Typography
        variant="h3"
        component="h1"
        gutterBottom
        sx={{ fontWeight: 700, fontSize: { xs: '1.5rem', sm: '2.5rem' } }}
      >
        {t('landing.title')}
      </Typography>
      <Typography
        variant="h6"
        component="p"
        color="text.secondary"
        sx={{
          fontWeight: 400,
          fontSize: { xs: '1rem', sm: '1.25rem' },
          lineHeight: { xs: 1.5, sm: 1.6 },
        }}
      >
        {t('landing.subtitle')}
      </Typography>
      <Paper
        variant="outlined"
        sx={{
          mt: { xs: 2.5, sm: 5 },
          mx: 'auto',
          maxWidth: 560,
          p: { xs: 0, sm: 3 },
          border: { xs: 'none', sm: 1 },
          borderColor: { sm: 'divider' },
          textAlign: 'start',
        }}
      >
        {newsletter}
      </Paper>
    </Container>
  );
}
