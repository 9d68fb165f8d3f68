import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** Shown in place of a team that requires its owners and admins to have a second factor. */
export function SecondFactorEnrolmentPrompt({ teamName }: { teamName: string }) {
  const { t } = useTranslation();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, sm: 6 } }}>
      <Alert
        severity="warning"
        action={
          <Button component={RouterLink} to="/profile" color="inherit" size="small">
            {t('profile.secondFactors.enrolAction')}
          </Button>
        }
      >
        <AlertTitle>{t('profile.secondFactors.enrolTitle', { team: teamName })}</AlertTitle>
        {t('profile.secondFactors.enrolText')}
      </Alert>
    </Container>
  );
}
