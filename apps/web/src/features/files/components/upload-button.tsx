import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import Button from '@mui/material/Button';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * "Upload files": a real button (keyboard users reach it like any other) that opens the hidden
 * file input; the input carries the same name, for assistive technology and automated tests.
 */
export function UploadButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="contained"
        startIcon={<CloudUploadOutlined />}
        onClick={() => input.current?.click()}
        sx={{ flexShrink: 0 }}
      >
        {t('files.upload.button')}
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label={t('files.upload.button')}
        onChange={(event) => {
          const chosen = Array.from(event.currentTarget.files ?? []);
          // Emptied so that choosing the same file again is a change too.
          event.currentTarget.value = '';
          if (chosen.length > 0) onFiles(chosen);
        }}
      />
    </>
  );
}
