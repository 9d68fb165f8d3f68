import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { canCreateFile, type TeamListItem } from '@raccolta/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../../lib/auth/session/session-context';
import { DEFAULT_COLLECTION_FILTERS } from '../../../lib/collections/collection-filters';
import { useCollectionsQuery } from '../../../lib/collections/list-collections';
import { formatFileSize } from '../../../lib/format-file-size';
import { useTeamActorState } from '../../../lib/teams/use-team-actor';
import { useTeamsQuery } from '../../../lib/teams/list-teams';
import { UPLOAD_APP_PATH, uploadCollectionPath } from '../../../lib/upload-paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRunOnce } from '../../../lib/use-run-once';
import { useCollectionUploads } from '../hooks/use-collection-uploads';
import {
  initialCollectionId,
  initialTeamId,
  readShareChoice,
  readSharedFiles,
  rememberShareChoice,
  removeSharedFiles,
  shareIdFromSearch,
  type ShareChoice,
} from '../utils/shared-files';
import { teamRefOf, uploadableTeams } from './upload-teams-page';
import { UploadHeading, UploadLoadState, UploadPage } from './upload-page';

type Shared = { status: 'loading' } | { status: 'ready'; files: File[] };

function useSharedFiles(id: string | null): Shared {
  const [read, setRead] = useState<{ id: string | null; files: File[] } | null>(null);
  useEffect(() => {
    let current = true;
    const reading =
      id === null || typeof caches === 'undefined' ? Promise.resolve([]) : readSharedFiles(id);
    void reading
      .catch(() => [])
      .then((files) => {
        if (current) setRead({ id, files });
      });
    return () => {
      current = false;
    };
  }, [id]);
  return read !== null && read.id === id
    ? { status: 'ready', files: read.files }
    : { status: 'loading' };
}

function SharedFilesList({ files }: { files: readonly File[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography sx={{ fontWeight: 600 }}>
        {t('uploadApp.share.files', { count: files.length })}
      </Typography>
      <Stack component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }} spacing={0.25}>
        {files.slice(0, 5).map((file, index) => (
          <Typography
            component="li"
            variant="body2"
            color="text.secondary"
            key={index}
            sx={{ overflowWrap: 'anywhere' }}
          >
            {file.name} ({formatFileSize(file.size, i18n.language)})
          </Typography>
        ))}
        {files.length > 5 && (
          <Typography component="li" variant="body2" color="text.secondary">
            {t('uploadApp.share.more', { count: files.length - 5 })}
          </Typography>
        )}
      </Stack>
    </Paper>
  );
}

/** Puts the shared files into the collection's upload queue, then opens its upload screen. */
function Enqueue({
  shareId,
  files,
  team,
  collectionId,
  userId,
}: {
  shareId: string;
  files: File[];
  team: TeamListItem;
  collectionId: string;
  userId: string;
}) {
  const navigate = useNavigate();
  // The same queue as the collection's upload screen (the page's registry): that screen shows it.
  const { queue } = useCollectionUploads(team.teamId, collectionId);
  useRunOnce(() => {
    queue.add(files);
    rememberShareChoice(userId, { teamId: team.teamId, collectionId });
    void removeSharedFiles(shareId)
      .catch(() => undefined)
      .then(() => navigate(uploadCollectionPath(teamRefOf(team), collectionId), { replace: true }));
  });
  return null;
}

function CollectionChoice({
  team,
  remembered,
  onSend,
  count,
}: {
  team: TeamListItem;
  remembered: ShareChoice | null;
  onSend: (collectionId: string) => void;
  count: number;
}) {
  const { t } = useTranslation();
  const member = useTeamActorState(team.teamId);
  const query = useCollectionsQuery(team.teamId, DEFAULT_COLLECTION_FILTERS);
  const { actor } = member;
  // Only those the member may add files to (spec §6), as on the collections screen.
  const collections =
    actor === null
      ? []
      : (query.data?.pages.flatMap((page) => page.collections) ?? []).filter((collection) =>
          canCreateFile({ role: actor.role, actorUserId: actor.userId, collection }),
        );
  const ids = collections.map((collection) => collection.collectionId);
  const preselected = initialCollectionId(team.teamId, ids, remembered);
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen !== null && ids.includes(chosen) ? chosen : preselected;

  if (query.data === undefined || member.actor === null) {
    return (
      <UploadLoadState
        error={query.error ?? member.error}
        loadingText={t('uploadApp.collections.loading')}
        onRetry={() => {
          void query.refetch();
          member.retry();
        }}
        paused={query.fetchStatus === 'paused' || member.paused}
      />
    );
  }
  if (collections.length === 0 && !query.hasNextPage) {
    return <Alert severity="info">{t('uploadApp.share.noCollections')}</Alert>;
  }
  return (
    <Stack spacing={2}>
      <FormControl>
        <FormLabel id="share-collection-label" sx={{ mb: 1 }}>
          {t('uploadApp.share.collection')}
        </FormLabel>
        <Paper variant="outlined" sx={{ px: 2, py: 0.5 }}>
          <RadioGroup
            aria-labelledby="share-collection-label"
            value={selected ?? ''}
            onChange={(event) => setChosen(event.target.value)}
          >
            {collections.map((collection) => (
              <FormControlLabel
                key={collection.collectionId}
                value={collection.collectionId}
                control={<Radio />}
                label={collection.name}
                sx={{ minHeight: 48, overflowWrap: 'anywhere' }}
              />
            ))}
          </RadioGroup>
        </Paper>
        {query.hasNextPage && (
          <Button
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            sx={{ alignSelf: 'flex-start', mt: 1 }}
          >
            {t('uploadApp.share.moreCollections')}
          </Button>
        )}
      </FormControl>
      <Button
        variant="contained"
        size="large"
        fullWidth
        disabled={selected === null}
        onClick={() => {
          if (selected !== null) onSend(selected);
        }}
      >
        {t('uploadApp.share.send', { count })}
      </Button>
    </Stack>
  );
}

function ShareChooser({
  shareId,
  files,
  userId,
}: {
  shareId: string;
  files: File[];
  userId: string;
}) {
  const { t } = useTranslation();
  const query = useTeamsQuery('');
  const teams = uploadableTeams(query.data?.pages.flatMap((page) => page.teams) ?? []);
  const [remembered] = useState(() => readShareChoice(userId));
  const [teamId, setTeamId] = useState<string | null>(null);
  const [sending, setSending] = useState<string | null>(null);
  const currentId =
    teamId ??
    initialTeamId(
      teams.map((team) => team.teamId),
      remembered,
    );
  const team = teams.find((candidate) => candidate.teamId === currentId);

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
  } else if (team === undefined) {
    body = <Alert severity="info">{t('uploadApp.teams.none')}</Alert>;
  } else {
    body = (
      <Stack spacing={2}>
        {teams.length > 1 && (
          <TextField
            select
            label={t('uploadApp.share.team')}
            value={team.teamId}
            onChange={(event) => setTeamId(event.target.value)}
            fullWidth
          >
            {teams.map((candidate) => (
              <MenuItem key={candidate.teamId} value={candidate.teamId}>
                {candidate.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <CollectionChoice
          key={team.teamId}
          team={team}
          remembered={remembered}
          count={files.length}
          onSend={setSending}
        />
        {sending !== null && (
          <Enqueue
            shareId={shareId}
            files={files}
            team={team}
            collectionId={sending}
            userId={userId}
          />
        )}
      </Stack>
    );
  }
  return (
    <Stack spacing={2}>
      <SharedFilesList files={files} />
      {body}
    </Stack>
  );
}

/** /upload/share?id=…: files shared from the phone's share sheet, sent to a collection. */
export function UploadSharePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('uploadApp.share.documentTitle'));
  const { search } = useLocation();
  const { idClaims } = useSession();
  const shareId = shareIdFromSearch(search);
  const shared = useSharedFiles(shareId);
  const userId = idClaims?.sub ?? null;

  let body;
  if (shared.status === 'loading' || userId === null) {
    body = (
      <UploadLoadState
        error={null}
        loadingText={t('uploadApp.share.loading')}
        onRetry={() => undefined}
      />
    );
  } else if (shareId === null || shared.files.length === 0) {
    body = (
      <Alert
        severity="warning"
        action={
          <Button component={RouterLink} to={UPLOAD_APP_PATH} color="inherit" size="small">
            {t('uploadApp.share.start')}
          </Button>
        }
      >
        {t('uploadApp.share.gone')}
      </Alert>
    );
  } else {
    body = <ShareChooser shareId={shareId} files={shared.files} userId={userId} />;
  }
  return (
    <UploadPage>
      <UploadHeading title={t('uploadApp.share.title')} subtitle={t('uploadApp.share.subtitle')} />
      {body}
    </UploadPage>
  );
}
