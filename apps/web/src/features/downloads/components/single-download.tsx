import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { archiveFileName, requestedLocalTime, type Download } from '@raccolta/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PendingStatus } from '../../../components/auth/pending-status';
import { useRunOnce } from '../../../lib/use-run-once';
import { formatFileSize } from '../../../lib/format-file-size';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { downloadKeys } from '../api/download-keys';
import { useStartDownloadMutation } from '../hooks/use-start-download';

/**
 * A ready download in one part (spec §2 Download page): the link is fetched and the browser
 * download started once, on arrival; then the saved message and "Download again".
 */
export function SingleDownload({ download }: { download: Download }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const start = useStartDownloadMutation();
  const target = { teamId: download.teamId, downloadId: download.requestId };
  const size = download.parts[0]?.size ?? download.totalBytes;

  const begin = () =>
    start.mutate(target, {
      // Expired or no longer offered meanwhile: the download's own state says what to do.
      onError: () =>
        void queryClient.invalidateQueries({
          queryKey: downloadKeys.detail(download.teamId, download.requestId),
        }),
    });
  // A second start would be a second file in the downloads folder: once, even in StrictMode.
  useRunOnce(begin);

  if (start.isError) {
    const detail =
      isApiError(start.error) && start.error.errorCode !== 'generic' ? errorText(start.error) : '';
    return (
      <Stack spacing={2}>
        <Alert severity="error">{`${t('files.errors.startingDownload')} ${detail}`.trim()}</Alert>
        <Button variant="contained" onClick={begin} sx={{ alignSelf: 'flex-start' }}>
          {t('actions.retry')}
        </Button>
      </Stack>
    );
  }
  if (start.isSuccess) {
    return (
      <Stack spacing={2}>
        <Alert severity="success" role="status">
          {t('downloads.page.started', {
            // The name the server gives it: the moment of the request, on this browser's clock.
            fileName: archiveFileName(download.collectionName, {
              localTime: requestedLocalTime(
                Date.parse(download.createdAt),
                start.data.localTime,
                start.data.at,
              ),
            }),
            size: formatFileSize(size, i18n.language),
          })}
        </Alert>
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={begin}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('downloads.page.downloadAgain')}
        </Button>
      </Stack>
    );
  }
  return <PendingStatus text={t('downloads.page.starting')} />;
}
