import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { StatusResponse } from '@raccolta/contracts';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text';
import { useStatusQuery } from '../api/get-status';
import { StatusChip } from './status-chip';
import { useDocumentTitle } from '../../../lib/use-document-title';

function formatTimestamp(timestamp: string, language: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'medium' }).format(date);
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '8rem 1fr' },
        gap: { xs: 0.5, sm: 2 },
      }}
    >
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body1" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** The message in the UI language, worded from the status and its problems, not the API's text. */
function statusMessage(t: TFunction, language: string, data: StatusResponse): string {
  if (data.status === 'ok') return t('statusPage.messages.ok');
  const problems = data.problems ?? [];
  if (problems.length === 0) return t('statusPage.messages.degradedUnknown');
  const list = new Intl.ListFormat(language, { type: 'conjunction' }).format(
    problems.map((problem) => t(`statusPage.problems.${problem}`)),
  );
  return t('statusPage.messages.degraded', { list });
}

function StatusDetails({ data }: { data: StatusResponse }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack component="dl" spacing={2} sx={{ m: 0 }}>
      <Field label={t('statusPage.status')}>
        <StatusChip status={data.status} />
      </Field>
      <Field label={t('statusPage.message')}>{statusMessage(t, i18n.language, data)}</Field>
      <Field label={t('statusPage.timestamp')}>
        <time dateTime={data.timestamp}>{formatTimestamp(data.timestamp, i18n.language)}</time>
      </Field>
    </Stack>
  );
}

function StatusBody({ data, error }: { data: StatusResponse | undefined; error: Error | null }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  if (data) {
    return (
      <>
        {/* A failed refresh keeps the last answer visible below the error. */}
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorText(error)}
          </Alert>
        )}
        <StatusDetails data={data} />
      </>
    );
  }
  if (error) return <Alert severity="error">{errorText(error)}</Alert>;
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
      <CircularProgress size={24} aria-hidden />
      <Typography>{t('statusPage.loading')}</Typography>
    </Stack>
  );
}

export function StatusPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('statusPage.title'));
  const { data, error, isFetching, refetch } = useStatusQuery();

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, sm: 6 } }}>
      <Stack
        direction="row"
        sx={{
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 2,
          mb: 3,
        }}
      >
        <Typography
          variant="h4"
          component="h1"
          sx={{ fontSize: { xs: '1.75rem', sm: '2.125rem' } }}
        >
          {t('statusPage.title')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={isFetching ? <CircularProgress size={18} color="inherit" /> : <RefreshIcon />}
          onClick={() => void refetch()}
          disabled={isFetching}
        >
          {t('actions.refresh')}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} aria-busy={isFetching}>
        <StatusBody data={data} error={error} />
      </Paper>
    </Container>
  );
}
