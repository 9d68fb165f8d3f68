import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { FileItem } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/auth/session/session-context';
import { getFileDownloadLink } from '../api/download-file';

/** A PDF, by its sniffed type. */
export function isPdf(contentType: string): boolean {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase() === 'application/pdf';
}

/**
 * Whether this browser shows PDFs itself (`navigator.pdfViewerEnabled`): desktop browsers do;
 * Chrome on Android does not, and a frame would stay empty there, so the preview shows the first
 * page's picture instead.
 */
export function browserShowsPdf(): boolean {
  return typeof navigator !== 'undefined' && navigator.pdfViewerEnabled;
}

/**
 * A PDF in the browser's own viewer, in a frame over a signed inline link of the original (asked
 * for once per opening: the link lives minutes, and a new one would reload the document).
 *
 * The frame has no `sandbox` attribute: Chromium refuses to show a PDF in any sandboxed frame
 * (an error page instead, whatever the allow- tokens). What keeps it safe is the link: the API
 * serves inline only a file sniffed as PDF, with `nosniff`, a CSP that allows no resource, and
 * framing by the web app's origins only; the viewer runs in the browser, not on our origin, and
 * every other type is an attachment under a sandbox CSP (docs/decisions.md).
 */
export function PreviewPdf({ file }: { file: FileItem }) {
  const { t } = useTranslation();
  const { request } = useSession();
  const query = useQuery({
    // Outside the files' keys: refreshing the lists must not reload the document.
    queryKey: ['pdfView', file.teamId, file.collectionId, file.fileId],
    queryFn: ({ signal }) => getFileDownloadLink(request, file, { inline: true, signal }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  if (query.isError) {
    return (
      <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', px: 6 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t('actions.retry')}
            </Button>
          }
        >
          {t('files.errors.loadingFile')}
        </Alert>
      </Box>
    );
  }
  if (query.data === undefined) {
    return (
      <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label={t('files.preview.loadingImage')} />
      </Box>
    );
  }
  return (
    <Box
      component="iframe"
      src={query.data}
      title={t('files.preview.pdfTitle', { name: file.name })}
      referrerPolicy="no-referrer"
      sx={{
        position: 'absolute',
        inset: 0,
        width: '100%',
        height: '100%',
        border: 0,
        bgcolor: 'background.paper',
      }}
    />
  );
}
