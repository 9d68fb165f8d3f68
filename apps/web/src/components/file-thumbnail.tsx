import Box from '@mui/material/Box';
import type { FileItem } from '@raccolta/contracts';
import { useState } from 'react';
import { FileTypeIcon } from './file-type-icon';

const THUMBNAIL_SIZE_PX = 40;

/**
 * A row's picture: the thumbnail when there is one, else (or when it fails to load) the icon of
 * the file's kind. Key it by the URL so a fresh link gets a fresh attempt.
 */
export function FileThumbnail({ file }: { file: Pick<FileItem, 'thumbnailUrl' | 'contentType'> }) {
  const [failed, setFailed] = useState(false);
  if (file.thumbnailUrl === null || failed) {
    return <FileTypeIcon contentType={file.contentType} size={THUMBNAIL_SIZE_PX} />;
  }
  return (
    <Box
      component="img"
      src={file.thumbnailUrl}
      // The name beside it says what it is.
      alt=""
      loading="lazy"
      decoding="async"
      width={THUMBNAIL_SIZE_PX}
      height={THUMBNAIL_SIZE_PX}
      onError={() => setFailed(true)}
      sx={{
        display: 'block',
        flexShrink: 0,
        objectFit: 'cover',
        borderRadius: 1,
        bgcolor: 'action.hover',
      }}
    />
  );
}
