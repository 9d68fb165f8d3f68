import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DateRangeFilter, type DateRangeValue } from '../../../components/date-range-filter';
import type { CollectionFilters } from '../../../lib/collections/collection-filters';

export interface CollectionsTitleBarProps {
  titleId: string;
  filters: CollectionFilters;
  refreshDisabled: boolean;
  onChange: (next: CollectionFilters) => void;
  onReset: () => void;
  onRefresh: () => void;
}

/** The title (a click shows everything again), the sort order and refresh. */
export function CollectionsTitleBar({
  titleId,
  filters,
  refreshDisabled,
  onChange,
  onReset,
  onRefresh,
}: CollectionsTitleBarProps) {
  const { t } = useTranslation();
  const descending = filters.sort === 'desc';
  const order = t(descending ? 'collections.sort.desc' : 'collections.sort.asc');
  return (
    <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
      <Typography
        id={titleId}
        variant="h6"
        component="h2"
        sx={{ flex: 1, minWidth: 'min-content', fontWeight: 600 }}
      >
        {/* describeChild: the tooltip must not replace the text that names the heading. */}
        <Tooltip title={t('collections.showAll')} describeChild>
          <Link
            component="button"
            type="button"
            color="inherit"
            underline="hover"
            onClick={onReset}
            sx={{ font: 'inherit', verticalAlign: 'baseline' }}
          >
            {t('collections.title')}
          </Link>
        </Tooltip>
      </Typography>
      <Button
        size="small"
        color="inherit"
        onClick={() => onChange({ ...filters, sort: descending ? 'asc' : 'desc' })}
        startIcon={descending ? <ArrowDownward /> : <ArrowUpward />}
        aria-label={t('collections.sort.label', { order })}
      >
        {order}
      </Button>
      <Tooltip title={t('actions.refresh')}>
        <span>
          <IconButton
            aria-label={t('actions.refresh')}
            onClick={onRefresh}
            disabled={refreshDisabled}
          >
            <Refresh />
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
}

export interface CollectionsFilterBarProps {
  filters: CollectionFilters;
  /** Names of the creator and tagged-user filters: undefined while loading, null if gone. */
  creatorName: string | null | undefined;
  taggedName: string | null | undefined;
  onChange: (next: CollectionFilters) => void;
}

/** The date range, "Only shared" and the removable chips of the member filters. */
export function CollectionsFilterBar({
  filters,
  creatorName,
  taggedName,
  onChange,
}: CollectionsFilterBarProps) {
  const { t } = useTranslation();
  const nameText = (name: string | null | undefined) =>
    name === undefined ? '…' : (name ?? t('collections.formerMember'));
  const range: DateRangeValue = {
    ...(filters.from !== undefined ? { from: filters.from } : {}),
    ...(filters.to !== undefined ? { to: filters.to } : {}),
  };
  const { from: _from, to: _to, ...withoutRange } = filters;

  return (
    <Stack spacing={1.5} sx={{ mb: 2 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        sx={{ alignItems: { xs: 'stretch', md: 'flex-start' }, gap: { xs: 1, md: 2 } }}
      >
        <DateRangeFilter
          value={range}
          onChange={(next) => onChange({ ...withoutRange, ...next })}
        />
        <FormControlLabel
          sx={{ mt: { md: 1 }, mr: 0 }}
          label={t('collections.filters.onlyShared')}
          control={
            <Checkbox
              // Shared lists only collaborative collections; Mine takes no view filter.
              checked={filters.tab === 'shared' || filters.collaborative}
              disabled={filters.tab !== 'all'}
              onChange={(event) => onChange({ ...filters, collaborative: event.target.checked })}
            />
          }
        />
      </Stack>
      {(filters.member !== undefined || filters.tagged !== undefined) && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {filters.member !== undefined && (
            <Chip
              label={t('collections.filters.creator', { name: nameText(creatorName) })}
              onDelete={() => onChange({ ...filters, member: undefined })}
              sx={{ maxWidth: '100%' }}
            />
          )}
          {filters.tagged !== undefined && (
            <Chip
              label={t('collections.filters.tagged', { name: nameText(taggedName) })}
              onDelete={() => onChange({ ...filters, tagged: undefined })}
              sx={{ maxWidth: '100%' }}
            />
          )}
        </Box>
      )}
    </Stack>
  );
}
