import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** A stand-in for the team list, which the teams feature builds. */
export function TeamsPage() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('teams.title')}
      </Typography>
      <Typography color="text.secondary">{t('teams.placeholder')}</Typography>
    </Container>
  );
}
