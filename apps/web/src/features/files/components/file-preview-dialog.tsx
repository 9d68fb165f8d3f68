import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Close from '@mui/icons-material/Close';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { FileItem } from '@raccolta/contracts';
import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFileQuery } from '../api/get-file';
import { useSwipe } from '../hooks/use-swipe';
import { formatFileSize } from '../../../lib/format-file-size';
import { FileTypeIcon } from '../../../components/file-type-icon';
import { PreviewImage } from './preview-image';
import { browserShowsPdf, isPdf, PreviewPdf } from './preview-pdf';

export interface FilePreviewDialogProps {
  /** The file shown, as the list has it (its name shows at once). */
  file: FileItem;
  /** Its neighbours among the loaded files; null at the ends. */
  previous: FileItem | null;
  next: FileItem | null;
  /** 1-based place among the loaded files, and how many are loaded; null when it left the list. */
  position: { index: number; total: number } | null;
  canDownload: boolean;
  downloading: boolean;
  onNavigate: (file: FileItem) => void;
  onDownload: (file: FileItem) => void;
  onClose: () => void;
}

function NavButton({
  label,
  target,
  side,
  onNavigate,
  children,
}: {
  label: string;
  target: FileItem | null;
  side: 'left' | 'right';
  onNavigate: (file: FileItem) => void;
  children: ReactNode;
}) {
  return (
    <IconButton
      aria-label={label}
      disabled={target === null}
      onClick={() => target !== null && onNavigate(target)}
      size="large"
      sx={{
        position: 'absolute',
        top: '50%',
        transform: 'translateY(-50%)',
        [side]: { xs: 4, sm: 12 },
        zIndex: 1,
        bgcolor: 'background.paper',
        boxShadow: 2,
        '&:hover': { bgcolor: 'background.paper' },
        '&.Mui-disabled': { bgcolor: 'background.paper', opacity: 0.5 },
      }}
    >
      {children}
    </IconButton>
  );
}

/** Where a message takes the place of the picture: centred, clear of the previous/next arrows. */
const MESSAGE_AREA = {
  position: 'absolute',
  inset: 0,
  display: 'grid',
  placeItems: 'center',
  py: 2,
  px: { xs: 7, sm: 8 },
} as const;

/**
 * The full-screen preview of spec §2: title, the preview picture (or, for a file without one, its
 * icon, name, size and a download button), previous and next across the loaded files with the
 * buttons, the ← → keys and a sideways swipe, the place among the loaded files ("3 of 12") at
 * every width, download when allowed, and close. Opening it fetches the file, which the server
 * takes as reading it.
 */
export function FilePreviewDialog({
  file,
  previous,
  next,
  position,
  canDownload,
  downloading,
  onNavigate,
  onDownload,
  onClose,
}: FilePreviewDialogProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('sm'), { noSsr: true });
  const query = useFileQuery(file.teamId, file.collectionId, file.fileId);
  const shown = query.data ?? file;
  // A PDF opens in the browser's viewer where it has one and the user may download the file
  // (the viewer saves and prints it); elsewhere its first page's picture, like an image's.
  const pdfFrame =
    query.data !== undefined && canDownload && isPdf(query.data.contentType) && browserShowsPdf();
  const hasPreview = query.data !== undefined && (query.data.previewUrl !== null || pdfFrame);

  const swipe = useSwipe((direction) => {
    const target = direction === 'left' ? next : previous;
    if (target !== null) onNavigate(target);
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.key === 'ArrowLeft' ? previous : event.key === 'ArrowRight' ? next : null;
    if (target === null) return;
    event.preventDefault();
    onNavigate(target);
  };

  const downloadButton = (
    <Button
      variant="contained"
      startIcon={<FileDownloadOutlined />}
      loading={downloading}
      onClick={() => onDownload(shown)}
    >
      {t('files.actions.download')}
    </Button>
  );

  let body: ReactNode;
  if (query.isError) {
    body = (
      <Box sx={MESSAGE_AREA}>
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
  } else if (query.data === undefined) {
    body = (
      <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  } else if (pdfFrame) {
    body = (
      <Box
        sx={{
          position: 'absolute',
          top: { xs: 0, sm: 16 },
          bottom: { xs: 0, sm: 16 },
          left: { xs: 0, sm: 76 },
          right: { xs: 0, sm: 76 },
        }}
      >
        <PreviewPdf key={query.data.fileId} file={query.data} />
      </Box>
    );
  } else if (query.data.previewUrl !== null) {
    body = (
      <Box
        sx={{
          position: 'absolute',
          top: { xs: 8, sm: 16 },
          bottom: { xs: 8, sm: 16 },
          left: { xs: 8, sm: 76 },
          right: { xs: 8, sm: 76 },
        }}
      >
        <PreviewImage
          key={query.data.previewUrl}
          src={query.data.previewUrl}
          alt={shown.name}
          onRetry={() => void query.refetch()}
        />
      </Box>
    );
  } else {
    body = (
      <Box sx={MESSAGE_AREA}>
        <Stack
          spacing={1.5}
          sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 440, px: 6 }}
        >
          <FileTypeIcon contentType={shown.contentType} size={96} />
          <Typography variant="h6" component="p" sx={{ overflowWrap: 'anywhere' }}>
            {shown.name}
          </Typography>
          <Typography color="text.secondary">
            {formatFileSize(shown.size, i18n.language)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('files.preview.noPreview')}
          </Typography>
          {canDownload && downloadButton}
        </Stack>
      </Box>
    );
  }

  return (
    <Dialog fullScreen open onClose={onClose} aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <AppBar
        position="static"
        color="inherit"
        elevation={0}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Toolbar sx={{ gap: 1 }}>
          <Tooltip title={t('actions.close')}>
            <IconButton edge="start" aria-label={t('actions.close')} onClick={onClose}>
              <Close />
            </IconButton>
          </Tooltip>
          <Typography
            id={titleId}
            variant="h6"
            component="h2"
            noWrap
            title={shown.name}
            sx={{ flex: 1, minWidth: 0, fontSize: { xs: '1rem', sm: '1.25rem' } }}
          >
            {shown.name}
          </Typography>
          {position !== null && (
            <Typography
              variant="body2"
              color="text.secondary"
              aria-live="polite"
              sx={{ flexShrink: 0 }}
            >
              {t('files.preview.position', position)}
            </Typography>
          )}
          {/* Without a picture the download button sits in the page, beside the file's details. */}
          {canDownload &&
            hasPreview &&
            (wide ? (
              downloadButton
            ) : (
              <IconButton
                aria-label={t('files.actions.download')}
                onClick={() => onDownload(shown)}
                disabled={downloading}
                edge="end"
              >
                <FileDownloadOutlined />
              </IconButton>
            ))}
        </Toolbar>
      </AppBar>
      <Box
        {...swipe}
        sx={{
          position: 'relative',
          flex: 1,
          minHeight: 0,
          overflow: 'hidden',
          // Sideways moves are the swipe's, never the browser's: no panning, and no overscroll
          // gesture that would go back a page and leave the collection.
          touchAction: 'pan-y pinch-zoom',
          overscrollBehavior: 'contain',
          bgcolor: theme.palette.mode === 'dark' ? 'grey.900' : 'grey.100',
        }}
      >
        {body}
        <NavButton
          label={t('files.preview.previous')}
          target={previous}
          side="left"
          onNavigate={onNavigate}
        >
          <ChevronLeft />
        </NavButton>
        <NavButton
          label={t('files.preview.next')}
          target={next}
          side="right"
          onNavigate={onNavigate}
        >
          <ChevronRight />
        </NavButton>
      </Box>
    </Dialog>
  );
}
