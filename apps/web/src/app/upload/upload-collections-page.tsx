import Add from '@mui/icons-material/Add';
import ChevronRight from '@mui/icons-material/ChevronRight';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import FolderSharedOutlined from '@mui/icons-material/FolderSharedOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import {
  canCreateCollection,
  canCreateFile,
  hasPermission,
  type Collection,
  type MemberActionInput,
  type Team,
} from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { LoadMoreSentinel } from '../../components/load-more-sentinel';
import { isClientError } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { useDocumentTitle } from '../../lib/use-document-title';
import { DueChip } from '../../components/due-chip';
import { CreateCollectionDialog } from '../../features/collections/components/create-collection-dialog';
import { DEFAULT_COLLECTION_FILTERS } from '../../lib/collections/collection-filters';
import { useCollectionsQuery } from '../../lib/collections/list-collections';
import { useTeamActorState } from '../../lib/teams/use-team-actor';
import { useTeamQuery } from '../../lib/teams/get-team';
import { useTeamsQuery } from '../../lib/teams/list-teams';
import { UPLOAD_APP_PATH, uploadCollectionPath } from '../../lib/upload-paths';
import {
  UploadHeading,
  UploadLoadState,
  UploadPage,
} from '../../features/upload-app/components/upload-page';
import { uploadableTeams } from '../../features/upload-app/components/upload-teams-page';

/** Only the collections this user may add files to (spec §6: own or shared, for contributors). */
export function uploadableCollections(
  collections: readonly Collection[],
  actor: MemberActionInput['actor'],
): Collection[] {
  return collections.filter((collection) =>
    canCreateFile({ role: actor.role, actorUserId: actor.userId, collection }),
  );
}

function CollectionList({
  team,
  teamRef,
  actor,
}: {
  team: Team;
  teamRef: string;
  actor: MemberActionInput['actor'];
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const query = useCollectionsQuery(team.teamId, DEFAULT_COLLECTION_FILTERS);
  const [creating, setCreating] = useState(false);
  const mayCreate = canCreateCollection({ role: actor.role, teamMode: team.mode });
  const collections = uploadableCollections(
    query.data?.pages.flatMap((page) => page.collections) ?? [],
    actor,
  );

  const createButton = mayCreate && (
    <Button
      variant={collections.length === 0 ? 'contained' : 'outlined'}
      startIcon={<Add />}
      onClick={() => setCreating(true)}
      fullWidth
      size="large"
    >
      {t('uploadApp.collections.new')}
    </Button>
  );

  let body;
  if (query.data === undefined) {
    body = (
      <UploadLoadState
        error={query.error}
        loadingText={t('uploadApp.collections.loading')}
        onRetry={() => void query.refetch()}
        paused={query.fetchStatus === 'paused'}
      />
    );
  } else if (collections.length === 0 && !query.hasNextPage) {
    body = (
      <Alert severity="info">
        {mayCreate ? t('uploadApp.collections.noneCreate') : t('uploadApp.collections.none')}
      </Alert>
    );
  } else {
    body = (
      <>
        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          <List disablePadding aria-label={t('uploadApp.collections.listLabel')}>
            {collections.map((collection, index) => {
              const shared = collection.mode === 'collaborative';
              const Icon = shared ? FolderSharedOutlined : FolderOutlined;
              return (
                <ListItem
                  key={collection.collectionId}
                  disablePadding
                  divider={index < collections.length - 1}
                >
                  <ListItemButton
                    component={RouterLink}
                    to={uploadCollectionPath(teamRef, collection.collectionId)}
                    sx={{ py: 1.25, minHeight: 64 }}
                  >
                    <ListItemIcon sx={{ minWidth: 40 }}>
                      <Icon
                        titleAccess={t(
                          shared ? 'uploadApp.collections.shared' : 'uploadApp.collections.private',
                        )}
                      />
                    </ListItemIcon>
                    <ListItemText
                      sx={{ minWidth: 0 }}
                      primary={collection.name}
                      secondary={t('uploadApp.collections.details', {
                        count: collection.filesCount,
                        date: formatDate(collection.updatedAt, i18n.language),
                      })}
                      slotProps={{ primary: { noWrap: true, sx: { fontWeight: 600 } } }}
                    />
                    <DueChip collection={collection} sx={{ ml: 1 }} />
                    <ChevronRight color="action" />
                  </ListItemButton>
                </ListItem>
              );
            })}
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
    <Stack spacing={2}>
      {body}
      {createButton}
      {creating && (
        <CreateCollectionDialog
          teamId={team.teamId}
          role={actor.role}
          onClose={() => setCreating(false)}
          onCreated={(collection) =>
            void navigate(uploadCollectionPath(teamRef, collection.collectionId))
          }
        />
      )}
    </Stack>
  );
}

function TeamCollections({ team, teamRef }: { team: Team; teamRef: string }) {
  const { t } = useTranslation();
  const member = useTeamActorState(team.teamId);
  const { actor } = member;
  // Asked for together with the member (the role), not after it: one round trip less before the
  // list shows on a slow link. The list below reads the same query.
  useCollectionsQuery(team.teamId, DEFAULT_COLLECTION_FILTERS);
  // The way back to the teams only matters to someone with more than one to choose from.
  const teams = useTeamsQuery('');
  const choices = uploadableTeams(teams.data?.pages.flatMap((page) => page.teams) ?? []);
  useDocumentTitle(team.name);

  let body;
  if (actor === null) {
    body = (
      <UploadLoadState
        error={member.error}
        loadingText={t('uploadApp.collections.loading')}
        onRetry={member.retry}
        paused={member.paused}
      />
    );
  } else if (!hasPermission(actor.role, 'createFile')) {
    body = <Alert severity="info">{t('uploadApp.collections.viewer')}</Alert>;
  } else {
    body = <CollectionList team={team} teamRef={teamRef} actor={actor} />;
  }

  return (
    <UploadPage>
      <UploadHeading title={team.name} subtitle={t('uploadApp.collections.subtitle')} />
      {body}
      <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 3, flexWrap: 'wrap', rowGap: 1 }}>
        {(choices.length > 1 || teams.hasNextPage) && (
          <Link component={RouterLink} to={UPLOAD_APP_PATH}>
            {t('uploadApp.collections.changeTeam')}
          </Link>
        )}
        <Link component={RouterLink} to={`/teams/${encodeURIComponent(teamRef)}`}>
          {t('uploadApp.collections.openTeamApp')}
        </Link>
      </Stack>
    </UploadPage>
  );
}

/** /upload/teams/{teamId or alias}: the collections to upload into, and a new one where allowed. */
export function UploadCollectionsPage() {
  const { t } = useTranslation();
  const { teamRef = '' } = useParams();
  const query = useTeamQuery(teamRef);

  if (query.data !== undefined) {
    return <TeamCollections key={query.data.teamId} team={query.data} teamRef={teamRef} />;
  }
  return (
    <UploadPage>
      {isClientError(query.error) ? (
        <Alert
          severity="error"
          action={
            <Button component={RouterLink} to={UPLOAD_APP_PATH} color="inherit" size="small">
              {t('uploadApp.teams.title')}
            </Button>
          }
        >
          {t('uploadApp.collections.teamNotFound')}
        </Alert>
      ) : (
        <UploadLoadState
          error={query.error}
          loadingText={t('uploadApp.collections.loading')}
          onRetry={() => void query.refetch()}
          paused={query.fetchStatus === 'paused'}
        />
      )}
    </UploadPage>
  );
}
