import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * Files dropped on the list are uploaded (desktop). The highlight follows a counter because
 * dragenter and dragleave fire for every child the pointer crosses.
 */
export function FileDropZone({
  enabled,
  onFiles,
  children,
}: {
  enabled: boolean;
  onFiles: (files: File[]) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const depth = useRef(0);
  const [over, setOver] = useState(false);
  if (!enabled) return <Box>{children}</Box>;

  return (
    <Box
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current = 0;
        setOver(false);
        const files = Array.from(event.dataTransfer.files);
        if (files.length > 0) onFiles(files);
      }}
      sx={{ position: 'relative', minHeight: 200 }}
    >
      {children}
      {over && (
        <Box
          sx={(theme) => ({
            position: 'absolute',
            inset: 0,
            zIndex: 2,
            pointerEvents: 'none',
            display: 'grid',
            placeItems: 'center',
            borderRadius: 1,
            border: 2,
            borderStyle: 'dashed',
            borderColor: 'primary.main',
            bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.2 : 0.08),
            backdropFilter: 'blur(1px)',
          })}
        >
          <Box sx={{ textAlign: 'center', color: 'primary.main' }}>
            <CloudUploadOutlined sx={{ fontSize: 48 }} />
            <Typography sx={{ fontWeight: 600 }}>{t('files.upload.drop')}</Typography>
          </Box>
        </Box>
      )}
    </Box>
  );
}
