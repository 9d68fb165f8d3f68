import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Download } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';

/**
 * A download still being prepared: what is going on and how far (parts stored of those
 * planned). The page keeps asking every 5 s, so this turns into the download by itself.
 */
export function DownloadPreparing({ download }: { download: Download }) {
  const { t } = useTranslation();
  const total = download.totalParts;
  const several = total !== null && total > 1;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} aria-hidden />
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('downloads.page.preparingTitle')}
        </Typography>
      </Stack>
      <Typography color="text.secondary">{t('downloads.page.preparing')}</Typography>
      <LinearProgress
        variant={several ? 'determinate' : 'indeterminate'}
        value={several ? (100 * download.readyParts) / total : undefined}
        aria-label={t('downloads.page.progressLabel')}
      />
      {several && (
        <Typography role="status" variant="body2">
          {t('downloads.page.partsReady', { ready: download.readyParts, total })}
        </Typography>
      )}
    </Stack>
  );
}
