import Add from '@mui/icons-material/Add';
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export interface CollectionsEmptyStateProps {
  filtered: boolean;
  canCreate: boolean;
  onClearFilters: () => void;
  onCreate: () => void;
}

/**
 * An empty list (spec §2): with filters, say so and offer to clear them; without, invite whoever
 * may create to make the first collection; anyone else only reads that there is none yet.
 */
export function CollectionsEmptyState({
  filtered,
  canCreate,
  onClearFilters,
  onCreate,
}: CollectionsEmptyStateProps) {
  const { t } = useTranslation();
  if (!filtered && !canCreate) {
    return (
      <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
        {t('collections.empty.title')}
      </Typography>
    );
  }
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', borderStyle: 'dashed' }}
    >
      <FolderOpenOutlined sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} />
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        {t(filtered ? 'collections.empty.filteredTitle' : 'collections.empty.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t(filtered ? 'collections.empty.filteredHint' : 'collections.empty.createHint')}
      </Typography>
      {filtered ? (
        <Button variant="outlined" startIcon={<FilterAltOffOutlined />} onClick={onClearFilters}>
          {t('collections.filters.clear')}
        </Button>
      ) : (
        <Button variant="contained" startIcon={<Add />} onClick={onCreate}>
          {t('collections.new')}
        </Button>
      )}
    </Paper>
  );
}
