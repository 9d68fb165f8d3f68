import ArrowBack from '@mui/icons-material/ArrowBack';
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Collection, MemberRef } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DateRangeFilter } from '../../../components/date-range-filter';
import { UserAvatar } from '../../../components/user-avatar';
import type { FileFiltersState } from '../hooks/use-file-filters';
import { isDefaultFilters, type FileView } from '../utils/file-filters';
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
}: FilesHeaderProps) {
  const { t } = useTranslation();
  const creatorName = creator === null ? '…' : (creator.nickname ?? t('files.formerMember'));

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
          {collection?.description != null && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {collection.description}
            </Typography>
          )}
        </Box>
        {onUpload !== null && (
          <Box sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}>
            <UploadButton onFiles={onUpload} />
          </Box>
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
        <DateRangeFilter
          value={{ from: filters.from, to: filters.to }}
          onChange={(range) => update({ from: range.from, to: range.to })}
        />
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
