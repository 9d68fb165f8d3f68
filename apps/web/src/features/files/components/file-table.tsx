import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import type { FileItem, SortDirection } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format-date';
import { VISUALLY_HIDDEN } from '../../../lib/visually-hidden';
import { FileRowMenu, type FileAction } from './file-row-menu';
import { FileThumbnail } from '../../../components/file-thumbnail';
import { UploaderButton, type GuestRef } from './uploader-button';

export interface FileTableProps {
  files: readonly FileItem[];
  /** From the sm breakpoint: separate uploader and date columns; below, one line under the name. */
  wide: boolean;
  label: string;
  sort: SortDirection;
  onToggleSort: () => void;
  onOpen: (file: FileItem) => void;
  onSelectUploader: (userId: string) => void;
  /** A guest's name: that guest's files through that upload link. */
  onSelectGuest?: (guest: GuestRef) => void;
  actions: readonly FileAction[];
  onAction: (action: FileAction, file: FileItem) => void;
}

const ACTIONS_WIDTH_PX = 52;

function SortHeader({ sort, onToggle }: { sort: SortDirection; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <TableSortLabel active direction={sort} onClick={onToggle}>
      {t('files.columns.updatedAt')}
      <Box component="span" sx={VISUALLY_HIDDEN}>
        {sort === 'desc' ? t('files.sortedDesc') : t('files.sortedAsc')}
      </Box>
    </TableSortLabel>
  );
}

interface FileRowProps extends Omit<FileTableProps, 'files' | 'label' | 'sort' | 'onToggleSort'> {
  file: FileItem;
}

function FileRow({
  file,
  wide,
  onOpen,
  onSelectUploader,
  onSelectGuest,
  actions,
  onAction,
}: FileRowProps) {
  const { t, i18n } = useTranslation();
  const unread = file.readAt === null;
  const updated = (
    <time dateTime={file.updatedAt}>{formatDate(file.updatedAt, i18n.language, wide)}</time>
  );
  return (
    <TableRow
      hover
      onClick={() => onOpen(file)}
      data-unread={unread ? 'true' : undefined}
      sx={{ cursor: 'pointer', '&:last-child > td': { borderBottom: 0 } }}
    >
      <TableCell sx={{ py: 1, pl: { xs: 1.5, sm: 2 }, pr: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <FileThumbnail key={file.thumbnailUrl ?? 'icon'} file={file} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
              {unread && (
                <Box
                  role="img"
                  aria-label={t('files.unread')}
                  sx={{
                    width: 8,
                    height: 8,
                    borderRadius: '50%',
                    bgcolor: 'primary.main',
                    flexShrink: 0,
                  }}
                />
              )}
              <ButtonBase
                onClick={(event) => {
                  event.stopPropagation();
                  onOpen(file);
                }}
                title={file.name}
                sx={{
                  minWidth: 0,
                  maxWidth: '100%',
                  justifyContent: 'flex-start',
                  borderRadius: 0.5,
                  '&.Mui-focusVisible': {
                    outline: 2,
                    outlineStyle: 'solid',
                    outlineColor: 'primary.main',
                  },
                }}
              >
                <Typography
                  component="span"
                  variant="body2"
                  noWrap
                  sx={{ fontWeight: unread ? 700 : 400, display: 'block' }}
                >
                  {file.name}
                </Typography>
              </ButtonBase>
              {file.damaged && (
                <Chip
                  size="small"
                  color="error"
                  variant="outlined"
                  label={t('files.damaged')}
                  title={t('files.damagedHint')}
                  sx={{ flexShrink: 0, height: 20 }}
                />
              )}
              {file.late && (
                <Chip
                  size="small"
                  color="warning"
                  variant="outlined"
                  label={t('files.late.chip')}
                  title={t('files.late.hint')}
                  sx={{ flexShrink: 0, height: 20 }}
                />
              )}
            </Stack>
            {!wide && (
              <Stack
                direction="row"
                spacing={0.75}
                sx={{ alignItems: 'center', minWidth: 0, mt: 0.25, color: 'text.secondary' }}
              >
                <Box sx={{ minWidth: 0, flexShrink: 1 }}>
                  <UploaderButton
                    uploader={file.uploader}
                    guest={file.guest}
                    avatarSize={20}
                    onSelect={onSelectUploader}
                    {...(onSelectGuest ? { onSelectGuest } : {})}
                  />
                </Box>
                <Typography variant="caption" noWrap sx={{ flexShrink: 0 }}>
                  · {updated}
                </Typography>
              </Stack>
            )}
          </Box>
        </Stack>
      </TableCell>
      {wide && (
        <TableCell sx={{ py: 1 }}>
          <UploaderButton
            uploader={file.uploader}
            guest={file.guest}
            avatarSize={28}
            onSelect={onSelectUploader}
            {...(onSelectGuest ? { onSelectGuest } : {})}
          />
        </TableCell>
      )}
      {wide && (
        <TableCell sx={{ py: 1, whiteSpace: 'nowrap', color: 'text.secondary' }}>
          {updated}
        </TableCell>
      )}
      <TableCell align="right" sx={{ py: 1, px: 0.5 }}>
        <FileRowMenu file={file} actions={actions} onAction={onAction} />
      </TableCell>
    </TableRow>
  );
}

/** The files of a collection: name with thumbnail or icon, uploader, update date, actions. */
export function FileTable({ files, label, sort, onToggleSort, ...rowProps }: FileTableProps) {
  const { t } = useTranslation();
  const { wide } = rowProps;
  return (
    <Table size="small" aria-label={label} sx={{ tableLayout: 'fixed', width: '100%' }}>
      <colgroup>
        <col />
        {wide && <col style={{ width: '28%' }} />}
        {wide && <col style={{ width: 190 }} />}
        <col style={{ width: ACTIONS_WIDTH_PX }} />
      </colgroup>
      <TableHead>
        {wide ? (
          <TableRow>
            <TableCell>{t('files.columns.name')}</TableCell>
            <TableCell>{t('files.columns.uploadedBy')}</TableCell>
            <TableCell sortDirection={sort}>
              <SortHeader sort={sort} onToggle={onToggleSort} />
            </TableCell>
            <TableCell>
              <Box component="span" sx={VISUALLY_HIDDEN}>
                {t('files.columns.actions')}
              </Box>
            </TableCell>
          </TableRow>
        ) : (
          <TableRow>
            <TableCell colSpan={2} sortDirection={sort} sx={{ pl: 1.5 }}>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                <span>{t('files.columns.name')}</span>
                <SortHeader sort={sort} onToggle={onToggleSort} />
              </Stack>
            </TableCell>
          </TableRow>
        )}
      </TableHead>
      <TableBody>
        {files.map((file) => (
          <FileRow key={file.fileId} file={file} {...rowProps} />
        ))}
      </TableBody>
    </Table>
  );
}
