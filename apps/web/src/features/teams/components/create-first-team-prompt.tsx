import Add from '@mui/icons-material/Add';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Spec §2: a user with no team who may create teams is invited to create the first one. */
export function CreateFirstTeamPrompt({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="first-team-title"
      sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}
    >
      <GroupsOutlined sx={{ fontSize: 56, color: 'primary.main', mb: 1 }} />
      <Typography id="first-team-title" variant="h6" component="h2" gutterBottom>
        {t('teams.firstTeam.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 480, mx: 'auto' }}>
        {t('teams.firstTeam.text')}
      </Typography>
      <Button variant="contained" size="large" startIcon={<Add />} onClick={onCreate}>
        {t('teams.firstTeam.action')}
      </Button>
    </Paper>
  );
}
