import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text';
import type { FileUploads } from '../hooks/use-file-uploads';
import { isUploadActive, type UploadItem } from '../utils/upload-queue';

function UploadRow({
  item,
  onRetry,
  onUploadAnyway,
}: {
  item: UploadItem;
  onRetry: (id: number) => void;
  onUploadAnyway: (id: number) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  let status;
  switch (item.status) {
    case 'queued':
      status = t('files.upload.waiting');
      break;
    case 'checking':
      status = t('files.upload.checking');
      break;
    case 'duplicate':
      status = (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <ContentCopyOutlined fontSize="small" />
          <span>{t('files.upload.duplicate')}</span>
        </Stack>
      );
      break;
    case 'uploading':
      status = t('files.upload.percent', { percent: item.percent });
      break;
    case 'done':
      status = (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'success.main' }}>
          <CheckCircleOutline fontSize="small" />
          <span>{t('files.upload.done')}</span>
        </Stack>
      );
      break;
    case 'failed':
      status = (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'error.main' }}>
          <ErrorOutline fontSize="small" />
          <span>{t('files.upload.failed')}</span>
        </Stack>
      );
      break;
  }
  return (
    <ListItem divider sx={{ display: 'block', px: 2, py: 1 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Typography variant="body2" noWrap title={item.name} sx={{ flex: 1, minWidth: 0 }}>
          {item.name}
        </Typography>
        <Typography component="div" variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
          {status}
        </Typography>
      </Stack>
      {item.status === 'duplicate' && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 0.5 }}>
          <Button
            size="small"
            aria-label={t('files.upload.uploadAnywayFile', { name: item.name })}
            onClick={() => onUploadAnyway(item.id)}
          >
            {t('files.upload.uploadAnyway')}
          </Button>
        </Stack>
      )}
      {isUploadActive(item.status) && (
        <LinearProgress
          variant={item.status === 'checking' ? 'indeterminate' : 'determinate'}
          value={item.percent}
          aria-label={t('files.upload.progressOf', { name: item.name })}
          sx={{ mt: 0.75, borderRadius: 1 }}
        />
      )}
      {item.status === 'failed' && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
          <Typography variant="caption" color="error" sx={{ flex: 1, minWidth: 0 }}>
            {errorText(item.error)}
          </Typography>
          <Button
            size="small"
            aria-label={t('files.upload.retryFile', { name: item.name })}
            onClick={() => onRetry(item.id)}
            sx={{ flexShrink: 0 }}
          >
            {t('files.upload.retry')}
          </Button>
        </Stack>
      )}
    </ListItem>
  );
}

/** The files chosen for upload: each with its progress, and what failed with a Retry. */
export function UploadPanel({ uploads }: { uploads: FileUploads }) {
  const { t } = useTranslation();
  const titleId = useId();
  const { items, busy } = uploads;
  if (items.length === 0) return null;
  const done = items.filter((item) => item.status === 'done').length;
  const failed = items.filter((item) => item.status === 'failed').length;
  const skipped = items.filter((item) => item.status === 'duplicate').length;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ mb: 2 }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={titleId} variant="subtitle2" component="h2">
            {t('files.upload.title')}
          </Typography>
          <Typography variant="caption" color="text.secondary" role="status">
            {t('files.upload.summary', { done, total: items.length })}
            {failed > 0 && ` · ${t('files.upload.failedCount', { count: failed })}`}
            {skipped > 0 && ` · ${t('files.upload.skippedCount', { count: skipped })}`}
          </Typography>
        </Box>
        {!busy && (
          <Button size="small" onClick={uploads.clearFinished}>
            {t('files.upload.clear')}
          </Button>
        )}
      </Stack>
      <List dense disablePadding sx={{ maxHeight: 280, overflowY: 'auto' }}>
        {items.map((item) => (
          <UploadRow
            key={item.id}
            item={item}
            onRetry={uploads.retry}
            onUploadAnyway={uploads.uploadAnyway}
          />
        ))}
      </List>
    </Paper>
  );
}
