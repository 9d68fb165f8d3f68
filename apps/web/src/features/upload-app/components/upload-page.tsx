import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';

/** A screen of the upload app: one narrow column, comfortable on a phone. */
export function UploadPage({ children }: { children: ReactNode }) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 2, sm: 4 }, px: { xs: 2, sm: 3 } }}>
      {children}
    </Container>
  );
}

/** The title of a screen, with a line under it. */
export function UploadHeading({
  title,
  subtitle,
  action,
}: {
  title: string;
  subtitle?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', mb: 2 }}>
      <Stack sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {subtitle !== undefined && (
          <Typography color="text.secondary" variant="body2">
            {subtitle}
          </Typography>
        )}
      </Stack>
      {action}
    </Stack>
  );
}

/** Loading, or the translated error with a retry. */
export function UploadLoadState({
  error,
  loadingText,
  onRetry,
  paused = false,
}: {
  error: unknown;
  loadingText: string;
  onRetry: () => void;
  /** The query waits for the connection (TanStack Query pauses it offline). */
  paused?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  if (paused && !error) {
    return (
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CloudOffOutlined color="action" />
        <Typography color="text.secondary">{t('uploadApp.waitingConnection')}</Typography>
      </Stack>
    );
  }
  // A team that asks its owners and admins for a second factor: retrying does not help, adding
  // one in the profile does.
  if (isApiError(error) && error.errorCode === 'secondFactorEnrolmentRequired') {
    return (
      <Alert
        severity="warning"
        action={
          <Button component={RouterLink} to="/profile" color="inherit" size="small">
            {t('profile.secondFactors.enrolAction')}
          </Button>
        }
      >
        <AlertTitle>{t('uploadApp.secondFactorTitle')}</AlertTitle>
        {t('profile.secondFactors.enrolText')}
      </Alert>
    );
  }
  if (error) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('actions.retry')}
          </Button>
        }
      >
        {errorText(error)}
      </Alert>
    );
  }
  return (
    <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center', py: 2 }}>
      <CircularProgress size={24} aria-hidden />
      <Typography>{loadingText}</Typography>
    </Stack>
  );
}
