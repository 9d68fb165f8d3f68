import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** The way on from pages of e-mailed links that end a flow (reject, unsubscribe…): the site root. */
export function BackHomeButton({ variant = 'contained' }: { variant?: 'contained' | 'outlined' }) {
  const { t } = useTranslation();
  return (
    <Button component={RouterLink} to="/" variant={variant} size="large" fullWidth>
      {t('actions.backHome')}
    </Button>
  );
}
