import ChevronRight from '@mui/icons-material/ChevronRight';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { hasPermission, type TeamListItem } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { TeamAvatar } from '../../../components/team-avatar';
import { useTeamsQuery } from '../../../lib/teams/list-teams';
import { uploadTeamPath } from '../../../lib/upload-paths';
import { UploadHeading, UploadLoadState, UploadPage } from './upload-page';

/** The reference a team is opened by: its preferred alias reads better than the id. */
export const teamRefOf = (team: Pick<TeamListItem, 'teamId' | 'starAlias'>) =>
  team.starAlias ?? team.teamId;

/** Teams in which the user's role lets them add files somewhere (spec §6: not viewers). */
export function uploadableTeams(teams: readonly TeamListItem[]): TeamListItem[] {
  return teams.filter((team) => hasPermission(team.memberRole, 'createFile'));
}

/** /upload: the teams to upload into; with only one, it opens at once. */
export function UploadTeamsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('uploadApp.teams.documentTitle'));
  const query = useTeamsQuery('');
  const pages = query.data?.pages ?? [];
  const teams = uploadableTeams(pages.flatMap((page) => page.teams));
  const complete = query.data !== undefined && !query.hasNextPage;

  if (complete && teams.length === 1 && teams[0] !== undefined) {
    return <Navigate to={uploadTeamPath(teamRefOf(teams[0]))} replace />;
  }

  let body;
  if (query.data === undefined) {
    body = (
      <UploadLoadState
        error={query.error}
        loadingText={t('uploadApp.teams.loading')}
        onRetry={() => void query.refetch()}
        paused={query.fetchStatus === 'paused'}
      />
    );
  } else if (teams.length === 0 && complete) {
    body = (
      <Alert severity="info">
        {t('uploadApp.teams.none')}{' '}
        <Link component={RouterLink} to="/teams">
          {t('uploadApp.menu.teamApp')}
        </Link>
      </Alert>
    );
  } else {
    body = (
      <>
        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          <List disablePadding aria-label={t('uploadApp.teams.listLabel')}>
            {teams.map((team, index) => (
              <ListItem key={team.teamId} disablePadding divider={index < teams.length - 1}>
                <ListItemButton
                  component={RouterLink}
                  to={uploadTeamPath(teamRefOf(team))}
                  sx={{ gap: 1, py: 1.5, minHeight: 64 }}
                >
                  <ListItemAvatar sx={{ minWidth: 52 }}>
                    <TeamAvatar team={team} />
                  </ListItemAvatar>
                  <ListItemText
                    sx={{ minWidth: 0 }}
                    primary={team.name}
                    secondary={t(`roles.${team.memberRole}`)}
                    slotProps={{ primary: { noWrap: true, sx: { fontWeight: 600 } } }}
                  />
                  <ChevronRight color="action" />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
        <LoadMoreSentinel
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      </>
    );
  }

  return (
    <UploadPage>
      <UploadHeading title={t('uploadApp.teams.title')} subtitle={t('uploadApp.teams.subtitle')} />
      {body}
    </UploadPage>
  );
}
