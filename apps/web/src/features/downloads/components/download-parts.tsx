import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Download, DownloadPart } from '@raccolta/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { formatFileSize } from '../../../lib/format-file-size';
import { useStartDownloadMutation } from '../hooks/use-start-download';
import { partsOf } from '../utils/download-outcome';

function PartRow({
  part,
  total,
  divider,
  pending,
  started,
  onDownload,
}: {
  part: DownloadPart;
  total: number;
  divider: boolean;
  pending: boolean;
  started: boolean;
  onDownload: () => void;
}) {
  const { t, i18n } = useTranslation();
  const ready = part.status === 'ready';
  const label = t('downloads.page.part', { part: part.partId, total });
  let detail = t('downloads.page.partPreparing');
  if (ready) {
    detail = [
      part.size === null ? null : formatFileSize(part.size, i18n.language),
      t('downloads.page.files', { count: part.fileCount }),
    ]
      .filter((text) => text !== null)
      .join(' · ');
  }
  return (
    <ListItem
      divider={divider}
      sx={{ gap: 1.5, flexWrap: 'wrap', px: { xs: 1.5, sm: 2 }, py: 1.25 }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 500 }}>{label}</Typography>
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      </Box>
      {started && (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'success.main' }}>
          <CheckCircleOutline fontSize="small" aria-hidden />
          <Typography variant="body2">{t('downloads.page.partStarted')}</Typography>
        </Stack>
      )}
      <Button
        variant={started ? 'text' : 'outlined'}
        size="small"
        disabled={!ready || pending}
        startIcon={pending ? <CircularProgress size={16} aria-hidden /> : <FileDownloadOutlined />}
        aria-label={t('downloads.page.downloadPart', { part: part.partId, total })}
        onClick={onDownload}
      >
        {t('actions.download')}
      </Button>
    </ListItem>
  );
}

/**
 * A download in several parts: one button each, since browsers refuse several downloads started
 * without a click. A part is offered as soon as it is stored, even while later ones are being
 * prepared; `autoPart` (the page's `?part=N`, from the e-mail) starts that part once it is ready.
 */
export function DownloadParts({
  download,
  autoPart,
}: {
  download: Download;
  autoPart: number | null;
}) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const [started, setStarted] = useState<ReadonlySet<number>>(() => new Set());
  const start = useStartDownloadMutation();
  const { mutateAsync } = start;
  const parts = partsOf(download);
  const total = parts.length;

  // mutateAsync: every click settles on its own, also when a second part starts meanwhile.
  const downloadPart = (partId: number) =>
    mutateAsync({ teamId: download.teamId, downloadId: download.requestId, partId }).then(
      () => setStarted((previous) => new Set(previous).add(partId)),
      () =>
        show(t('files.errors.startingDownload'), 'error', {
          autoHideDuration: ERROR_TOAST_DURATION_MS,
        }),
    );

  const autoReady = parts.some((part) => part.partId === autoPart && part.status === 'ready');
  const autoStarted = useRef(false);
  const latestDownloadPart = useRef(downloadPart);
  useEffect(() => {
    latestDownloadPart.current = downloadPart;
  });
  useEffect(() => {
    if (!autoReady || autoPart === null || autoStarted.current) return;
    autoStarted.current = true;
    void latestDownloadPart.current(autoPart);
  }, [autoReady, autoPart]);

  return (
    <Stack spacing={1.5}>
      <Typography color="text.secondary">
        {t('downloads.page.partsIntro', { count: total })}
      </Typography>
      <List
        disablePadding
        aria-label={t('downloads.page.partsLabel')}
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
      >
        {parts.map((part, index) => (
          <PartRow
            key={part.partId}
            part={part}
            total={total}
            divider={index < total - 1}
            pending={start.isPending && start.variables.partId === part.partId}
            started={started.has(part.partId)}
            onDownload={() => void downloadPart(part.partId)}
          />
        ))}
      </List>
    </Stack>
  );
}
