import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

function chosen(event: ChangeEvent<HTMLInputElement>): File[] {
  const files = Array.from(event.currentTarget.files ?? []);
  // Emptied so that choosing the same file again is a change too.
  event.currentTarget.value = '';
  return files;
}

/**
 * The two ways in: the camera (on a phone, `capture` opens it directly; elsewhere it is a picker
 * of images) and any files. Real buttons open hidden inputs that carry the same names, for
 * assistive technology and automated tests.
 */
export function CaptureButtons({
  onFiles,
  disabled = false,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const camera = useRef<HTMLInputElement>(null);
  const files = useRef<HTMLInputElement>(null);

  const receive = (event: ChangeEvent<HTMLInputElement>) => {
    const list = chosen(event);
    if (list.length > 0) onFiles(list);
  };

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
      <Button
        variant="contained"
        size="large"
        startIcon={<PhotoCameraOutlined />}
        onClick={() => camera.current?.click()}
        disabled={disabled}
        fullWidth
        sx={{ py: 1.5 }}
      >
        {t('uploadApp.upload.takePhotos')}
      </Button>
      <Button
        variant="outlined"
        size="large"
        startIcon={<FolderOpenOutlined />}
        onClick={() => files.current?.click()}
        disabled={disabled}
        fullWidth
        sx={{ py: 1.5 }}
      >
        {t('uploadApp.upload.chooseFiles')}
      </Button>
      <input
        ref={camera}
        type="file"
        accept="image/*"
        capture="environment"
        multiple
        hidden
        tabIndex={-1}
        aria-label={t('uploadApp.upload.takePhotos')}
        onChange={receive}
      />
      <input
        ref={files}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label={t('uploadApp.upload.chooseFiles')}
        onChange={receive}
      />
    </Stack>
  );
}
