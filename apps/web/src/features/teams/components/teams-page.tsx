import { useTranslation } from 'react-i18next';
import { TeamChooser } from './team-chooser';

/** /teams: the user's teams; a single team opens at once (spec §2). */
export function TeamsPage() {
  const { t } = useTranslation();
  return <TeamChooser title={t('teams.title')} autoRedirect />;
}
