import DeleteOutline from '@mui/icons-material/DeleteOutline';
import RestartAlt from '@mui/icons-material/RestartAlt';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '../../../lib/format-file-size';
import type { InterruptedWithOffset } from '../hooks/use-interrupted-uploads';

function InterruptedRow({
  upload,
  onDiscard,
}: {
  upload: InterruptedWithOffset;
  onDiscard: (upload: InterruptedWithOffset) => void;
}) {
  const { t, i18n } = useTranslation();
  const size = (bytes: number) => formatFileSize(bytes, i18n.language);
  const offset = upload.offset?.kind === 'offset' ? upload.offset.bytes : null;
  const progress =
    offset === null
      ? size(upload.size)
      : t('uploadApp.interrupted.progress', { sent: size(offset), total: size(upload.size) });
  const when = (epochMs: number) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(
      epochMs,
    );
  const expiresAt = upload.offset?.kind === 'offset' ? upload.offset.expiresAt : null;
  let dates: string | null = null;
  if (expiresAt !== null) {
    dates = t('uploadApp.interrupted.keptUntil', { date: when(expiresAt) });
  } else if (!Number.isNaN(upload.startedAt)) {
    dates = t('uploadApp.interrupted.startedAt', { date: when(upload.startedAt) });
  }

  return (
    <ListItem divider sx={{ display: 'block', px: 2, py: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" noWrap title={upload.fileName}>
            {upload.fileName}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p">
            {progress}
          </Typography>
          {dates !== null && (
            <Typography variant="caption" color="text.secondary" component="p">
              {dates}
            </Typography>
          )}
        </Box>
        <IconButton
          size="small"
          edge="end"
          aria-label={t('uploadApp.interrupted.discardFile', { name: upload.fileName })}
          onClick={() => onDiscard(upload)}
        >
          <DeleteOutline fontSize="small" />
        </IconButton>
      </Stack>
      {offset !== null && upload.size > 0 && (
        <LinearProgress
          variant="determinate"
          color="warning"
          value={Math.min(100, (offset / upload.size) * 100)}
          aria-label={t('uploadApp.interrupted.progressOf', { name: upload.fileName })}
          sx={{ mt: 0.75, borderRadius: 1 }}
        />
      )}
    </ListItem>
  );
}

/**
 * Uploads an earlier visit left unfinished. The browser no longer has their files: choosing the
 * same file again resumes it from where the server's copy stopped. The files chosen here are
 * meant to be those (`onChosen`): any other is a wrong pick, not a new upload.
 */
export function InterruptedUploads({
  uploads,
  onChosen,
  onDiscard,
}: {
  uploads: readonly InterruptedWithOffset[];
  onChosen: (files: File[]) => void;
  onDiscard: (upload: InterruptedWithOffset) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const input = useRef<HTMLInputElement>(null);
  if (uploads.length === 0) return null;
  const chooseAgain = t('uploadApp.interrupted.chooseAgain', { count: uploads.length });
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ borderColor: 'warning.main' }}
    >
      <Box sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
        <Typography id={titleId} variant="subtitle2" component="h2">
          {t('uploadApp.interrupted.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('uploadApp.interrupted.text', { count: uploads.length })}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<RestartAlt />}
          onClick={() => input.current?.click()}
          fullWidth
          sx={{ mt: 1.5 }}
        >
          {chooseAgain}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          aria-label={chooseAgain}
          onChange={(event) => {
            const files = Array.from(event.currentTarget.files ?? []);
            // Emptied so that choosing the same file again is a change too.
            event.currentTarget.value = '';
            if (files.length > 0) onChosen(files);
          }}
        />
      </Box>
      <List dense disablePadding aria-label={t('uploadApp.interrupted.listLabel')}>
        {uploads.map((upload) => (
          <InterruptedRow key={upload.urlStorageKey} upload={upload} onDiscard={onDiscard} />
        ))}
      </List>
    </Paper>
  );
}
