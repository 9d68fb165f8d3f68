import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import type { TeamListItem } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { teamPath } from '../../../lib/teams/team-keys';
import { TeamAvatar } from '../../../components/team-avatar';

export function TeamList({ teams }: { teams: TeamListItem[] }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <List disablePadding aria-label={t('teams.listLabel')}>
        {teams.map((team, index) => (
          <ListItem key={team.teamId} disablePadding divider={index < teams.length - 1}>
            <ListItemButton component={RouterLink} to={teamPath(team)} sx={{ gap: 1, py: 1.25 }}>
              <ListItemAvatar sx={{ minWidth: 52 }}>
                <TeamAvatar team={team} />
              </ListItemAvatar>
              <ListItemText
                sx={{ minWidth: 0 }}
                primary={team.name}
                secondary={
                  team.description ?? t('teams.membersCount', { count: team.membersCount })
                }
                slotProps={{
                  primary: { noWrap: true, sx: { fontWeight: 600 } },
                  secondary: { noWrap: true },
                }}
              />
              <Chip
                size="small"
                variant="outlined"
                label={t(`roles.${team.memberRole}`)}
                sx={{ flexShrink: 0 }}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
