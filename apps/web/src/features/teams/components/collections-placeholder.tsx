import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The dashboard's collections area until the collections feature arrives: its empty state. */
export function CollectionsPlaceholder() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="team-collections-title">
      <Typography id="team-collections-title" variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {t('team.collections.title')}
      </Typography>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', borderStyle: 'dashed' }}
      >
        <FolderOpenOutlined sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} />
        <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
          {t('team.collections.emptyTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('team.collections.emptyText')}
        </Typography>
      </Paper>
    </section>
  );
}
