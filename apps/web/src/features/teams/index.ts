/** What the rest of the app uses of the teams feature. */
export { SelectedTeamMenu } from './components/team-menu';
export { SwitchTeamPage } from './components/switch-team-page';
export { TeamsPage } from './components/teams-page';
