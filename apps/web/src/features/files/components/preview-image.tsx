import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The preview picture, fitted inside its box, with a spinner until it has loaded and, if it
 * cannot be shown, the preview failure alert of spec §2 (loadingFile) with a Retry that loads it
 * again (`onRetry` may fetch a fresh link meanwhile). Key it by `src`: another picture starts
 * loading from scratch. Right-click and dragging are blocked by the app's image guards, as on
 * every image.
 */
export function PreviewImage({
  src,
  alt,
  onRetry,
}: {
  src: string;
  alt: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  if (state === 'failed') {
    return (
      <Box
        sx={{
          position: 'absolute',
          inset: 0,
          display: 'grid',
          placeItems: 'center',
          py: 2,
          // Clear of the previous/next arrows, which overlap the picture's box on a phone.
          px: { xs: 6, sm: 2 },
        }}
      >
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                setState('loading');
                onRetry();
              }}
            >
              {t('actions.retry')}
            </Button>
          }
        >
          {t('files.errors.loadingFile')}
        </Alert>
      </Box>
    );
  }
  return (
    <>
      {state === 'loading' && (
        <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
          <CircularProgress aria-label={t('files.preview.loadingImage')} />
        </Box>
      )}
      <Box
        component="img"
        src={src}
        alt={alt}
        draggable={false}
        onLoad={() => setState('loaded')}
        onError={() => setState('failed')}
        sx={{
          position: 'absolute',
          inset: 0,
          m: 'auto',
          maxWidth: '100%',
          maxHeight: '100%',
          objectFit: 'contain',
          userSelect: 'none',
          opacity: state === 'loaded' ? 1 : 0,
          transition: 'opacity 150ms',
        }}
      />
    </>
  );
}
