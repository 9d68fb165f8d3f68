import FolderOutlined from '@mui/icons-material/FolderOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Download } from '@raccolta/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { PageLoadState } from '../../../components/page-load-state';
import { isClientError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { collectionPagePath } from '../../../lib/collections/collection-keys';
import { formatFileSize } from '../../../lib/format-file-size';
import { useDownloadQuery } from '../api/get-download';
import { DownloadParts } from './download-parts';
import { DownloadPreparing } from './download-preparing';
import { SingleDownload } from './single-download';

/** `?part=N` names one part to start (the e-mail's links); anything else is ignored. */
function partFromQuery(value: string | null): number | null {
  if (value === null || !/^[1-9]\d{0,3}$/.test(value)) return null;
  return Number(value);
}

function PageFrame({ children }: { children: ReactNode }) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, sm: 6 }, px: { xs: 2, sm: 3 } }}>
      {children}
    </Container>
  );
}

/** 404 (not the caller's, or no such download) or 403 (a role that may not download). */
function DownloadNotFound() {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
          {t('downloads.page.notFoundTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('downloads.page.notFound')}
        </Typography>
        <Button component={RouterLink} to="/" variant="contained">
          {t('actions.backHome')}
        </Button>
      </Paper>
    </PageFrame>
  );
}

/** Failed or expired: nothing to download here; the collection is where to request it again. */
function DownloadUnavailable({
  download,
  collectionHref,
}: {
  download: Download;
  collectionHref: string;
}) {
  const { t, i18n } = useTranslation();
  const expired = download.status === 'expired';
  let text = t('downloads.page.failed');
  if (expired) {
    text =
      download.expiresAt === null
        ? t('downloads.page.expiredNoDate')
        : t('downloads.page.expired', {
            date: formatDate(download.expiresAt, i18n.language, true),
          });
  }
  return (
    <Stack spacing={2}>
      <Alert severity={expired ? 'warning' : 'error'}>
        <AlertTitle>
          {t(expired ? 'downloads.page.expiredTitle' : 'downloads.page.failedTitle')}
        </AlertTitle>
        {text}
      </Alert>
      <Button
        component={RouterLink}
        to={collectionHref}
        variant="contained"
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('downloads.page.requestAgain')}
      </Button>
    </Stack>
  );
}

function DownloadBody({
  download,
  autoPart,
  collectionHref,
}: {
  download: Download;
  autoPart: number | null;
  collectionHref: string;
}) {
  const { t } = useTranslation();
  const several = download.totalParts !== null && download.totalParts > 1;
  if (download.status === 'failed' || download.status === 'expired') {
    return <DownloadUnavailable download={download} collectionHref={collectionHref} />;
  }
  if (download.status === 'inProgress') {
    return (
      <Stack spacing={3}>
        <DownloadPreparing download={download} />
        {/* The parts already stored can be downloaded while the others are prepared. */}
        {several && <DownloadParts download={download} autoPart={autoPart} />}
      </Stack>
    );
  }
  return several ? (
    <Stack spacing={2}>
      <Alert severity="success" role="status">
        {t('downloads.page.partsAllReady', { count: download.totalParts })}
      </Alert>
      <DownloadParts download={download} autoPart={autoPart} />
    </Stack>
  ) : (
    <SingleDownload download={download} />
  );
}

function DownloadView({ download, autoPart }: { download: Download; autoPart: number | null }) {
  const { t, i18n } = useTranslation();
  const collectionHref = collectionPagePath(download.teamId, download.collectionId);
  const summary = [
    t('downloads.page.files', { count: download.fileCount }),
    formatFileSize(download.totalBytes, i18n.language),
  ].join(' · ');

  return (
    <PageFrame>
      <Button
        component={RouterLink}
        to={collectionHref}
        startIcon={<FolderOutlined />}
        sx={{ ml: -1, mb: 1, textAlign: 'left', overflowWrap: 'anywhere' }}
      >
        {t('downloads.page.collectionLink', { name: download.collectionName })}
      </Button>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography
          variant="h5"
          component="h1"
          sx={{ fontWeight: 600, overflowWrap: 'anywhere', mb: 0.5 }}
        >
          {t('downloads.page.heading', { name: download.collectionName })}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          {summary}
        </Typography>
        <DownloadBody download={download} autoPart={autoPart} collectionHref={collectionHref} />
        {download.status === 'ready' && download.expiresAt !== null && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
            {t('downloads.page.availableUntil', {
              date: formatDate(download.expiresAt, i18n.language, true),
            })}
          </Typography>
        )}
      </Paper>
    </PageFrame>
  );
}

/**
 * /teams/{teamId}/downloads/{downloadId}/download, the page the ready e-mail links to (spec §2):
 * follows the download while it is prepared, starts a one-part download by itself, lists the
 * parts of a larger one, and explains a failed, expired or unknown one.
 */
export function DownloadPage() {
  const { t } = useTranslation();
  const { teamId = '', downloadId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const autoPart = partFromQuery(searchParams.get('part'));
  const query = useDownloadQuery(teamId, downloadId);
  const download = query.data;
  useDocumentTitle(
    download === undefined
      ? t('downloads.page.title')
      : t('downloads.page.documentTitle', { name: download.collectionName }),
  );

  if (isClientError(query.error)) return <DownloadNotFound />;
  if (download === undefined) {
    return (
      <PageLoadState
        error={query.error}
        loadingText={t('downloads.page.loading')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  // Keyed: another download starts afresh (its own automatic start).
  return <DownloadView key={download.requestId} download={download} autoPart={autoPart} />;
}
