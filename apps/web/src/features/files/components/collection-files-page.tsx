import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { NOT_FOUND_PATH } from '../../../lib/paths';
import { useTeamQuery } from '../../../lib/teams/get-team';
import { PageLoadState } from '../../../components/page-load-state';
import { isClientError } from '../../../lib/api-client';
import { CollectionFilesScreen } from './collection-files-screen';

/**
 * /teams/{teamId or alias}/collections/{collectionId}: the files of a collection. Like the team
 * dashboard, any 4xx loading the team (or the collection) goes to /404.
 */
export function CollectionFilesPage() {
  const { t } = useTranslation();
  const { teamRef = '', collectionId = '' } = useParams();
  const query = useTeamQuery(teamRef);

  if (isClientError(query.error)) return <Navigate to={NOT_FOUND_PATH} replace />;
  if (query.data !== undefined) {
    // Keyed: another collection starts with its own uploads, preview and dialogs.
    return (
      <CollectionFilesScreen
        key={`${query.data.teamId}/${collectionId}`}
        team={query.data}
        collectionId={collectionId}
      />
    );
  }
  return (
    <PageLoadState
      error={query.error}
      loadingText={t('files.loadingCollection')}
      onRetry={() => void query.refetch()}
    />
  );
}
