import { useTranslation } from 'react-i18next';
import { TeamChooser } from './team-chooser';

/** /switch-team: the same list without the auto-redirect, so a single team can still be left. */
export function SwitchTeamPage() {
  const { t } = useTranslation();
  return <TeamChooser title={t('switchTeam.title')} autoRedirect={false} />;
}
