import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The preview picture, fitted inside its box, with a spinner until it has loaded and an alert if
 * it cannot be shown. Key it by `src`: another picture starts loading from scratch. Right-click
 * and dragging are blocked by the app's image guards, as on every image.
 */
export function PreviewImage({ src, alt }: { src: string; alt: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  if (state === 'failed') {
    return (
      <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', p: 2 }}>
        <Alert severity="error">{t('files.preview.imageFailed')}</Alert>
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
