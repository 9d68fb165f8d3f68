import { DueChip } from '../../../components/due-chip';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DoneAll from '@mui/icons-material/DoneAll';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import FilterList from '@mui/icons-material/FilterList';
import LinkIcon from '@mui/icons-material/Link';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Collection, MemberRef } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DateRangeFilter } from '../../../components/date-range-filter';
import { UserAvatar } from '../../../components/user-avatar';
import type { FileFiltersState } from '../hooks/use-file-filters';
import { isDefaultFilters, type FileView } from '../utils/file-filters';
import { VISUALLY_HIDDEN } from '../../../lib/visually-hidden';
import { UploadButton } from './upload-button';

export interface FilesHeaderProps {
  /** The team dashboard, where the collections are. */
  backTo: string;
  collection: Collection | undefined;
  filterState: FileFiltersState;
  /** Who the creator filter names; null while that is still loading. */
  creator: MemberRef | null;
  refreshing: boolean;
  onRefresh: () => void;
  /** Null when the caller may not upload here. */
  onUpload: ((files: File[]) => void) | null;
  /** "Download all" requests the collection's download; null when the role may not. */
  onDownloadAll: (() => void) | null;
  /** The request is on its way to the server. */
  downloadPending?: boolean;
  /** "Mark all as read": every file of the collection read for the caller; null without files. */
  onMarkAllRead?: (() => void) | null;
  markingAllRead?: boolean;
  /** Opens the list of files with the same content; null where there is nothing to compare. */
  onShowDuplicates?: (() => void) | null;
}

/**
 * "Download all": disabled with the reason on an empty collection. The reason is the button's
 * description too, since a disabled button cannot be focused to show its tooltip.
 */
function DownloadAllButton({
  empty,
  pending,
  onClick,
}: {
  empty: boolean;
  pending: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  const reasonId = useId();
  const button = (
    <Button
      variant="outlined"
      startIcon={pending ? <CircularProgress size={18} aria-hidden /> : <FileDownloadOutlined />}
      onClick={onClick}
      disabled={empty || pending}
      aria-describedby={empty ? reasonId : undefined}
      sx={{ flexShrink: 0 }}
    >
      {t('downloads.downloadAll')}
    </Button>
  );
  if (!empty) return button;
  return (
    <Tooltip title={t('downloads.noFiles')} describeChild>
      {/* A disabled button fires no events: the wrapper shows the tooltip. */}
      <span>
        {button}
        <Box component="span" id={reasonId} sx={VISUALLY_HIDDEN}>
          {t('downloads.noFiles')}
        </Box>
      </span>
    </Tooltip>
  );
}

/**
 * Back to the collections, Clear filters and Refresh; the collection's name; the All / Mine views,
 * the date filter and the removable creator chip (spec §2 "Files screen").
 */
export function FilesHeader({
  backTo,
  collection,
  filterState: { filters, update, clear },
  creator,
  refreshing,
  onRefresh,
  onUpload,
  onDownloadAll,
  downloadPending = false,
  onMarkAllRead = null,
  markingAllRead = false,
  onShowDuplicates = null,
}: FilesHeaderProps) {
  const { t } = useTranslation();
  const creatorName = creator === null ? '…' : (creator.nickname ?? t('files.formerMember'));
  const theme = useTheme();
  // On a phone the date filter folds away behind a toggle, so the first file shows without
  // scrolling; a date already set keeps it open.
  const phone = !useMediaQuery(theme.breakpoints.up('sm'), { noSsr: true });
  const dated = filters.from !== undefined || filters.to !== undefined;
  const [filtersOpen, setFiltersOpen] = useState(dated);
  const dateFilterId = useId();

  return (
    <Box component="header" sx={{ mb: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Button
          component={RouterLink}
          to={backTo}
          startIcon={<ArrowBack />}
          sx={{ ml: -1, mr: 'auto' }}
        >
          {t('files.back')}
        </Button>
        <Button
          startIcon={<FilterAltOffOutlined />}
          onClick={clear}
          disabled={isDefaultFilters(filters)}
        >
          {t('files.clearFilters')}
        </Button>
        {onShowDuplicates !== null && (
          <Tooltip title={t('files.duplicates.open')}>
            <IconButton aria-label={t('files.duplicates.open')} onClick={onShowDuplicates}>
              <ContentCopyOutlined />
            </IconButton>
          </Tooltip>
        )}
        {onMarkAllRead !== null && (
          <Tooltip title={t('files.markAllRead')}>
            <span>
              <IconButton
                aria-label={t('files.markAllRead')}
                onClick={onMarkAllRead}
                disabled={markingAllRead}
              >
                {markingAllRead ? <CircularProgress size={20} aria-hidden /> : <DoneAll />}
              </IconButton>
            </span>
          </Tooltip>
        )}
        <Tooltip title={t('actions.refresh')}>
          <span>
            <IconButton aria-label={t('actions.refresh')} onClick={onRefresh} disabled={refreshing}>
              {refreshing ? <CircularProgress size={20} aria-hidden /> : <Refresh />}
            </IconButton>
          </span>
        </Tooltip>
      </Stack>

      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 1.5, sm: 2 }}
        sx={{ alignItems: { xs: 'stretch', sm: 'flex-start' }, mb: 1.5 }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography
            variant="h5"
            component="h1"
            sx={{
              fontWeight: 600,
              overflowWrap: 'anywhere',
              fontSize: { xs: '1.25rem', sm: '1.5rem' },
            }}
          >
            {collection?.name ?? <Skeleton width="40%" aria-label={t('common.loading')} />}
          </Typography>
          {collection?.deadline && <DueChip collection={collection} sx={{ mt: 0.5 }} />}
          {collection?.description != null && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {collection.description}
            </Typography>
          )}
        </Box>
        {(onUpload !== null || (onDownloadAll !== null && collection !== undefined)) && (
          <Stack
            direction="row"
            sx={{
              alignSelf: { xs: 'flex-start', sm: 'center' },
              flexWrap: 'wrap',
              gap: 1,
            }}
          >
            {onDownloadAll !== null && collection !== undefined && (
              <DownloadAllButton
                empty={collection.filesCount === 0}
                pending={downloadPending}
                onClick={onDownloadAll}
              />
            )}
            {onUpload !== null && <UploadButton onFiles={onUpload} />}
          </Stack>
        )}
      </Stack>

      <Tabs
        value={filters.view}
        onChange={(_event, view: FileView) => update({ view, creator: undefined })}
        aria-label={t('files.views.label')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        <Tab value="all" label={t('files.views.all')} />
        <Tab value="mine" label={t('files.views.mine')} />
      </Tabs>

      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', md: 'center' } }}
      >
        {phone && (
          <Box>
            <Button
              startIcon={<FilterList />}
              aria-expanded={filtersOpen}
              aria-controls={dateFilterId}
              onClick={() => setFiltersOpen((open) => !open)}
              sx={{ ml: -1 }}
            >
              {dated ? t('files.filtersToggleActive') : t('files.filtersToggle')}
            </Button>
          </Box>
        )}
        <Collapse in={!phone || filtersOpen} id={dateFilterId} unmountOnExit>
          <DateRangeFilter
            value={{ from: filters.from, to: filters.to }}
            onChange={(range) => update({ from: range.from, to: range.to })}
          />
        </Collapse>
        {(filters.guest !== undefined || filters.link !== undefined) && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            {filters.guest !== undefined && (
              <Chip
                icon={<PersonOutline />}
                label={t('files.guestName', { name: filters.guest })}
                aria-label={t('files.removeGuest', {
                  name: t('files.guestName', { name: filters.guest }),
                })}
                onClick={() => update({ guest: undefined })}
                onDelete={() => update({ guest: undefined })}
                sx={{ maxWidth: '100%' }}
              />
            )}
            {filters.link !== undefined && (
              <Chip
                icon={<LinkIcon />}
                label={t('files.linkChip')}
                aria-label={t('files.removeLink')}
                onClick={() => update({ link: undefined })}
                onDelete={() => update({ link: undefined })}
                sx={{ maxWidth: '100%' }}
              />
            )}
          </Stack>
        )}
        {filters.creator !== undefined && (
          <Box>
            <Chip
              avatar={<UserAvatar name={creatorName} src={creator?.avatarUrl} size={24} />}
              label={t('files.creatorChip', { name: creatorName })}
              aria-label={t('files.removeCreator', { name: creatorName })}
              onClick={() => update({ creator: undefined })}
              onDelete={() => update({ creator: undefined })}
              sx={{ maxWidth: '100%' }}
            />
          </Box>
        )}
      </Stack>
    </Box>
  );
}
