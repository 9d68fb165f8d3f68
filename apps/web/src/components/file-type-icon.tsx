import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import FolderZipOutlined from '@mui/icons-material/FolderZipOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Box from '@mui/material/Box';
import { fileIconKind, type FileIconKind } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';

const ICONS: Record<FileIconKind, { icon: typeof ImageOutlined; color: string }> = {
  image: { icon: ImageOutlined, color: 'success.main' },
  pdf: { icon: PictureAsPdfOutlined, color: 'error.main' },
  zip: { icon: FolderZipOutlined, color: 'warning.main' },
  application: { icon: DescriptionOutlined, color: 'primary.main' },
  generic: { icon: InsertDriveFileOutlined, color: 'text.secondary' },
};

/** The icon of a file's kind (spec §2: image, pdf, zip, other application, generic), named. */
export function FileTypeIcon({ contentType, size = 40 }: { contentType: string; size?: number }) {
  const { t } = useTranslation();
  const kind = fileIconKind(contentType);
  const { icon: Icon, color } = ICONS[kind];
  return (
    <Box
      role="img"
      aria-label={t(`files.kinds.${kind}`)}
      data-kind={kind}
      sx={{
        width: size,
        height: size,
        flexShrink: 0,
        borderRadius: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'action.hover',
        color,
      }}
    >
      <Icon sx={{ fontSize: size * 0.6 }} />
    </Box>
  );
}
