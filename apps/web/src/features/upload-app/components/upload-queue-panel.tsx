import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import Close from '@mui/icons-material/Close';
import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text';
import { formatFileSize } from '../../../lib/format-file-size';
import { useOnlineStatus } from '../hooks/use-online-status';
import { isActive, type UploadEntry } from '../utils/upload-entry';

const percentOf = (sent: number, total: number) =>
  total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 100;

/**
 * Bytes of the whole batch: what arrived of every file still listed, against their sizes. A file
 * skipped as a duplicate is not part of it.
 */
export function batchProgress(entries: readonly UploadEntry[]) {
  let sent = 0;
  let total = 0;
  for (const entry of entries) {
    if (entry.status === 'duplicate') continue;
    total += entry.size;
    sent += entry.status === 'done' ? entry.size : entry.bytesSent;
  }
  return { sent, total };
}

/**
 * A state with its icon. The warning orange is too light for small text on white (WCAG AA), so
 * a paused line keeps the secondary text colour and only its icon is orange.
 */
function StatusLine({
  icon,
  color,
  text,
  iconOnly = false,
}: {
  icon: ReactNode;
  color: string;
  text: string;
  iconOnly?: boolean;
}) {
  return (
    <Stack
      direction="row"
      spacing={0.5}
      sx={{ alignItems: 'center', color: iconOnly ? 'text.secondary' : color }}
    >
      <Box component="span" sx={{ display: 'flex', color }}>
        {icon}
      </Box>
      <span>{text}</span>
    </Stack>
  );
}

function UploadRow({
  entry,
  online,
  onRetry,
  onCancel,
  onUploadAnyway,
}: {
  entry: UploadEntry;
  online: boolean;
  onRetry: (id: number) => void;
  onCancel: (id: number) => void;
  onUploadAnyway: (id: number) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const percent = percentOf(entry.bytesSent, entry.size);
  const active = isActive(entry.status);

  let status: ReactNode;
  switch (entry.status) {
    case 'queued':
      status = online ? t('uploadApp.queue.waiting') : t('uploadApp.queue.waitingConnection');
      break;
    case 'hashing':
      status = t('uploadApp.queue.checking');
      break;
    case 'duplicate':
      status = (
        <StatusLine
          icon={<ContentCopyOutlined fontSize="small" />}
          color="text.secondary"
          text={t('uploadApp.queue.duplicate')}
        />
      );
      break;
    case 'uploading':
      status = entry.resumed
        ? t('uploadApp.queue.resumedPercent', { percent })
        : t('uploadApp.queue.percent', { percent });
      break;
    case 'paused':
      status = (
        <StatusLine
          icon={<CloudOffOutlined fontSize="small" />}
          color="warning.main"
          text={t('uploadApp.queue.paused', { percent })}
          iconOnly
        />
      );
      break;
    case 'done':
      status = (
        <StatusLine
          icon={<CheckCircleOutline fontSize="small" />}
          color="success.main"
          text={t('uploadApp.queue.done')}
        />
      );
      break;
    case 'failed':
      status = (
        <StatusLine
          icon={<ErrorOutline fontSize="small" />}
          color="error.main"
          text={t('uploadApp.queue.failed')}
        />
      );
      break;
  }

  return (
    <ListItem divider sx={{ display: 'block', px: 2, py: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" noWrap title={entry.name}>
            {entry.name}
          </Typography>
          <Typography component="div" variant="caption" color="text.secondary">
            {status}
          </Typography>
        </Box>
        {entry.status === 'duplicate' && (
          <Button
            size="small"
            aria-label={t('uploadApp.queue.uploadAnywayFile', { name: entry.name })}
            onClick={() => onUploadAnyway(entry.id)}
            sx={{ flexShrink: 0 }}
          >
            {t('uploadApp.queue.uploadAnyway')}
          </Button>
        )}
        {(active || entry.status === 'failed') && (
          <IconButton
            size="small"
            edge="end"
            aria-label={t('uploadApp.queue.cancelFile', { name: entry.name })}
            onClick={() => onCancel(entry.id)}
          >
            <Close fontSize="small" />
          </IconButton>
        )}
      </Stack>
      {active && (
        <LinearProgress
          variant={entry.status === 'hashing' ? 'indeterminate' : 'determinate'}
          value={percent}
          color={entry.status === 'paused' ? 'warning' : 'primary'}
          aria-label={t('uploadApp.queue.progressOf', { name: entry.name })}
          sx={{ mt: 0.75, borderRadius: 1 }}
        />
      )}
      {entry.status === 'failed' && entry.failure !== null && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
          <Typography variant="caption" color="error" sx={{ flex: 1, minWidth: 0 }}>
            {errorText(entry.failure.errorCode)}
          </Typography>
          {entry.failure.retryable && (
            <Button
              size="small"
              aria-label={t('uploadApp.queue.retryFile', { name: entry.name })}
              onClick={() => onRetry(entry.id)}
              sx={{ flexShrink: 0 }}
            >
              {t('uploadApp.queue.retry')}
            </Button>
          )}
        </Stack>
      )}
    </ListItem>
  );
}

export interface UploadQueuePanelProps {
  entries: readonly UploadEntry[];
  onRetry: (id: number) => void;
  onCancel: (id: number) => void;
  onUploadAnyway: (id: number) => void;
  onClear: () => void;
}

/** The files of this visit: the whole batch's bytes, then each file with its state and actions. */
export function UploadQueuePanel({
  entries,
  onRetry,
  onCancel,
  onUploadAnyway,
  onClear,
}: UploadQueuePanelProps) {
  const { t, i18n } = useTranslation();
  const online = useOnlineStatus();
  const titleId = useId();
  if (entries.length === 0) return null;

  const done = entries.filter((entry) => entry.status === 'done').length;
  const failed = entries.filter((entry) => entry.status === 'failed').length;
  const skipped = entries.filter((entry) => entry.status === 'duplicate').length;
  const busy = entries.some((entry) => isActive(entry.status));
  const { sent, total } = batchProgress(entries);
  const size = (bytes: number) => formatFileSize(bytes, i18n.language);

  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId}>
      <Box sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography id={titleId} variant="subtitle2" component="h2">
              {t('uploadApp.queue.title')}
            </Typography>
            <Typography variant="caption" color="text.secondary" role="status" component="p">
              {t('uploadApp.queue.summary', { done, total: entries.length })}
              {failed > 0 && ` · ${t('uploadApp.queue.failedCount', { count: failed })}`}
              {skipped > 0 && ` · ${t('uploadApp.queue.skippedCount', { count: skipped })}`}
            </Typography>
          </Box>
          {!busy && (
            <Button size="small" onClick={onClear} sx={{ flexShrink: 0 }}>
              {t('uploadApp.queue.clear')}
            </Button>
          )}
        </Stack>
        <LinearProgress
          variant="determinate"
          value={percentOf(sent, total)}
          aria-label={t('uploadApp.queue.overall')}
          sx={{ mt: 1, height: 8, borderRadius: 1 }}
        />
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
          {t('uploadApp.queue.bytes', { sent: size(sent), total: size(total) })}
        </Typography>
      </Box>
      <List dense disablePadding aria-label={t('uploadApp.queue.listLabel')}>
        {entries.map((entry) => (
          <UploadRow
            key={entry.id}
            entry={entry}
            online={online}
            onRetry={onRetry}
            onCancel={onCancel}
            onUploadAnyway={onUploadAnyway}
          />
        ))}
      </List>
    </Paper>
  );
}
