/** What the rest of the app uses of the teams feature. */
export { SelectedTeamMenu } from './components/team-menu';
export { SwitchTeamPage } from './components/switch-team-page';
export { TeamDashboardPage } from './components/team-dashboard-page';
export { TeamsPage } from './components/teams-page';
export { teamPath } from './api/team-keys';
export { useTeamQuery } from './api/get-team';
export { useTeamActor } from './hooks/use-team-actor';
export { useTeamsQuery } from './api/list-teams';
export { TeamAvatar } from './components/team-avatar';
