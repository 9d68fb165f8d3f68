import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { canCreateFile, type Collection, type Team } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { isApiError, isClientError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { collectionPagePath } from '../../../lib/collections/collection-keys';
import { useCollectionQuery } from '../../../lib/files/get-collection';
import { useTeamActorState } from '../../../lib/teams/use-team-actor';
import { useTeamQuery } from '../../../lib/teams/get-team';
import { useCollectionUploads } from '../hooks/use-collection-uploads';
import { uploadTeamPath } from '../../../lib/upload-paths';
import { MyFilesList } from './my-files-list';
import { UploadLoadState, UploadPage } from './upload-page';
import { UploadControls } from './upload-controls';

function BackLink({ teamRef }: { teamRef: string }) {
  const { t } = useTranslation();
  const label = t('uploadApp.upload.back');
  return (
    <Tooltip title={label}>
      <IconButton
        component={RouterLink}
        to={uploadTeamPath(teamRef)}
        aria-label={label}
        edge="start"
      >
        <ArrowBack />
      </IconButton>
    </Tooltip>
  );
}

function Uploader({ team, collection }: { team: Team; collection: Collection }) {
  const uploads = useCollectionUploads(team.teamId, collection.collectionId);
  return <UploadControls uploads={uploads} />;
}

function CollectionScreen({
  team,
  teamRef,
  collectionId,
}: {
  team: Team;
  teamRef: string;
  collectionId: string;
}) {
  const { t } = useTranslation();
  const member = useTeamActorState(team.teamId);
  const { actor } = member;
  const query = useCollectionQuery(team.teamId, collectionId);
  const collection = query.data;
  useDocumentTitle(collection?.name ?? null);

  let body;
  if (collection === undefined || actor === null) {
    // A team asking for a second factor refuses both queries: say so, not "not found".
    const enrol = [member.error, query.error].find(
      (error) => isApiError(error) && error.errorCode === 'secondFactorEnrolmentRequired',
    );
    body = enrol ? (
      <UploadLoadState error={enrol} loadingText="" onRetry={member.retry} />
    ) : isClientError(query.error) ? (
      <Alert severity="error">{t('uploadApp.upload.notFound')}</Alert>
    ) : (
      <UploadLoadState
        error={query.error ?? member.error}
        loadingText={t('uploadApp.upload.loading')}
        onRetry={() => {
          void query.refetch();
          member.retry();
        }}
        paused={query.fetchStatus === 'paused' || member.paused}
      />
    );
  } else if (!canCreateFile({ role: actor.role, actorUserId: actor.userId, collection })) {
    body = <Alert severity="info">{t('uploadApp.upload.notAllowed')}</Alert>;
  } else {
    body = (
      <Stack spacing={2}>
        <Uploader team={team} collection={collection} />
        <MyFilesList
          teamId={team.teamId}
          collectionId={collection.collectionId}
          collectionName={collection.name}
        />
      </Stack>
    );
  }

  return (
    <UploadPage>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
        <BackLink teamRef={teamRef} />
        <Stack sx={{ flex: 1, minWidth: 0 }}>
          <Typography
            variant="h5"
            component="h1"
            sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
          >
            {collection?.name ?? <Skeleton width="60%" />}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {team.name}
          </Typography>
        </Stack>
      </Stack>
      {body}
      <Link
        component={RouterLink}
        to={collectionPagePath(teamRef, collectionId)}
        sx={{ display: 'inline-block', mt: 3 }}
      >
        {t('uploadApp.upload.openInTeamApp')}
      </Link>
    </UploadPage>
  );
}

/** /upload/teams/{teamId or alias}/collections/{collectionId}: take photos, pick files, upload. */
export function UploadCollectionPage() {
  const { t } = useTranslation();
  const { teamRef = '', collectionId = '' } = useParams();
  const team = useTeamQuery(teamRef);

  if (team.data !== undefined) {
    return (
      <CollectionScreen
        key={`${team.data.teamId}/${collectionId}`}
        team={team.data}
        teamRef={teamRef}
        collectionId={collectionId}
      />
    );
  }
  return (
    <UploadPage>
      {isClientError(team.error) ? (
        <Alert
          severity="error"
          action={
            <Button component={RouterLink} to="/upload" color="inherit" size="small">
              {t('uploadApp.teams.title')}
            </Button>
          }
        >
          {t('uploadApp.collections.teamNotFound')}
        </Alert>
      ) : (
        <UploadLoadState
          error={team.error}
          loadingText={t('uploadApp.upload.loading')}
          onRetry={() => void team.refetch()}
          paused={team.fetchStatus === 'paused'}
        />
      )}
    </UploadPage>
  );
}
