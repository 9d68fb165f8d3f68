import Alert, { type AlertColor } from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The narrow card every auth screen sits in; full width with a small margin on a phone. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <Container maxWidth="xs" sx={{ py: { xs: 3, sm: 8 }, px: { xs: 2, sm: 3 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography
          variant="h5"
          component="h1"
          sx={{ fontWeight: 600, mb: subtitle === undefined ? 3 : 1 }}
        >
          {title}
        </Typography>
        {subtitle !== undefined && (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {subtitle}
          </Typography>
        )}
        {children}
      </Paper>
    </Container>
  );
}

/** What a link to the sign-in page may carry in its history state. */
export interface SignInState {
  email?: string;
}

/** The end of a flow: a message and, below it, the way on (usually the sign-in button). */
export function AuthOutcome({
  severity,
  message,
  action,
}: {
  severity: AlertColor;
  message: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Stack spacing={3}>
      <Alert severity={severity}>{message}</Alert>
      {action}
    </Stack>
  );
}

export function SignInButton({
  variant = 'contained',
  to = '/auth/signin',
  email,
}: {
  variant?: 'contained' | 'outlined';
  /** The upload app's sign-in for a visitor who came from it. */
  to?: string;
  /** The address the sign-in form starts with (kept in the history state, not in the URL). */
  email?: string;
}) {
  const { t } = useTranslation();
  return (
    <Button
      component={RouterLink}
      to={to}
      state={email === undefined ? undefined : ({ email } satisfies SignInState)}
      variant={variant}
      fullWidth
      size="large"
    >
      {t('actions.signIn')}
    </Button>
  );
}
