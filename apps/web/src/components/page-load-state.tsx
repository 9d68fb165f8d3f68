import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../lib/error-text';

/**
 * What a page shows while the object it is about loads: a status line, or the translated error
 * with a retry. Pages send a 4xx to /404 themselves (isClientError) before falling back to this.
 */
export function PageLoadState({
  error,
  loadingText,
  onRetry,
}: {
  error: unknown;
  loadingText: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }}>
      {error ? (
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
      ) : (
        <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} aria-hidden />
          <Typography>{loadingText}</Typography>
        </Stack>
      )}
    </Container>
  );
}
