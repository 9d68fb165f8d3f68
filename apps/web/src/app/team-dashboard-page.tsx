import ChevronLeft from '@mui/icons-material/ChevronLeft';
import Close from '@mui/icons-material/Close';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { MEMBERS_PANEL_WIDTH_PX, type Team } from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { NOT_FOUND_PATH } from '../lib/paths';
import { PageLoadState } from '../components/page-load-state';
import { isClientError } from '../lib/api-client';
import { useDocumentTitle } from '../lib/use-document-title';
import { CollectionsView } from '../features/collections/components/collections-view';
import { withCreatorFilter } from '../lib/collections/collection-filters';
import { MembersPanel } from '../features/members/components/members-panel';
import { useTeamQuery } from '../lib/teams/get-team';
import { useTeamActor } from '../lib/teams/use-team-actor';
import { isApiError } from '../lib/api-client';
import { useSession } from '../lib/auth/session/session-context';
import { useMemberQuery } from '../lib/members/get-member';
import { SecondFactorEnrolmentPrompt } from '../features/profile/components/second-factor-enrolment-prompt';
import { TeamAvatar } from '../components/team-avatar';

/** The members panel's collapsed state survives reloads and other teams (localStorage). */
const PANEL_COLLAPSED_KEY = 'membersPanelCollapsed';

function readPanelOpen(): boolean {
  try {
    return localStorage.getItem(PANEL_COLLAPSED_KEY) !== 'true';
  } catch {
    return true;
  }
}

function rememberPanelOpen(open: boolean): void {
  try {
    if (open) localStorage.removeItem(PANEL_COLLAPSED_KEY);
    else localStorage.setItem(PANEL_COLLAPSED_KEY, 'true');
  } catch {
    // Without storage the panel opens again next time: acceptable.
  }
}

const COLLAPSED_PANEL_WIDTH_PX = 56;

function TeamDashboard({ team, teamRef }: { team: Team; teamRef: string }) {
  const { t } = useTranslation();
  const theme = useTheme();
  // Read at once (noSsr): a first render as a phone would flash the drawer layout on a desktop.
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const actor = useTeamActor(team.teamId);
  const [panelOpen, setPanelOpenState] = useState(readPanelOpen);
  const setPanelOpen = (open: boolean) => {
    setPanelOpenState(open);
    rememberPanelOpen(open);
  };
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [, setParams] = useSearchParams();
  useDocumentTitle(team.name);
  const showCollectionsOf = (member: { userId: string }) => {
    setParams((current) => withCreatorFilter(current, member.userId));
    setDrawerOpen(false);
  };

  const hideLabel = t('members.hidePanel');
  const showLabel = t('members.showPanel');

  let panel;
  if (!wide) {
    // On a phone the panel is an overlay: the collections keep the whole width.
    panel = (
      <Drawer
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        slotProps={{ paper: { sx: { width: MEMBERS_PANEL_WIDTH_PX, maxWidth: '85vw' } } }}
      >
        <MembersPanel
          teamId={team.teamId}
          actor={actor}
          onSelectMember={showCollectionsOf}
          headerAction={
            <IconButton aria-label={hideLabel} onClick={() => setDrawerOpen(false)} edge="end">
              <Close />
            </IconButton>
          }
        />
      </Drawer>
    );
  } else if (panelOpen) {
    panel = (
      <Box
        component="aside"
        aria-label={t('members.title')}
        sx={{
          width: MEMBERS_PANEL_WIDTH_PX,
          flexShrink: 0,
          borderRight: 1,
          borderColor: 'divider',
        }}
      >
        <MembersPanel
          teamId={team.teamId}
          actor={actor}
          onSelectMember={showCollectionsOf}
          headerAction={
            <Tooltip title={hideLabel}>
              <IconButton aria-label={hideLabel} onClick={() => setPanelOpen(false)} edge="end">
                <ChevronLeft />
              </IconButton>
            </Tooltip>
          }
        />
      </Box>
    );
  } else {
    panel = (
      <Box
        component="aside"
        sx={{
          width: COLLAPSED_PANEL_WIDTH_PX,
          flexShrink: 0,
          borderRight: 1,
          borderColor: 'divider',
          display: 'flex',
          justifyContent: 'center',
          pt: 1.5,
        }}
      >
        <Tooltip title={showLabel} placement="right">
          <IconButton aria-label={showLabel} onClick={() => setPanelOpen(true)}>
            <PeopleAltOutlined />
          </IconButton>
        </Tooltip>
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', flex: 1, minWidth: 0 }}>
      {/*
        The collections come first in the page's order, so Tab reaches "New collection" and the
        list before the members; `order` still draws the members panel on the left.
      */}
      <Box sx={{ order: 1, flex: 1, minWidth: 0, px: { xs: 2, sm: 3 }, py: { xs: 2.5, sm: 3 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 3, minWidth: 0 }}>
          <TeamAvatar team={team} size={48} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {/* Wraps rather than truncates: beside the Members button a phone has little room. */}
            <Typography
              variant="h5"
              component="h1"
              sx={{
                fontWeight: 600,
                overflowWrap: 'anywhere',
                fontSize: { xs: '1.25rem', sm: '1.5rem' },
              }}
            >
              {team.name}
            </Typography>
            {team.description !== null && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {team.description}
              </Typography>
            )}
          </Box>
          {!wide && (
            <Button
              variant="outlined"
              size="small"
              startIcon={<PeopleAltOutlined />}
              onClick={() => setDrawerOpen(true)}
              sx={{ flexShrink: 0 }}
            >
              {t('members.title')}
            </Button>
          )}
        </Stack>
        <CollectionsView team={team} teamRef={teamRef} actor={actor} />
      </Box>
      {panel}
    </Box>
  );
}

/**
 * A team that requires a second factor answers its owners and admins without one 403
 * secondFactorEnrolmentRequired on everything but the team itself: they see why, and where to
 * add one, instead of failing lists.
 */
function TeamGate({ team, teamRef }: { team: Team; teamRef: string }) {
  const { idClaims } = useSession();
  const member = useMemberQuery(
    team.requireSecondFactor ? team.teamId : null,
    idClaims?.sub ?? null,
  );
  if (
    team.requireSecondFactor &&
    isApiError(member.error) &&
    member.error.errorCode === 'secondFactorEnrolmentRequired'
  ) {
    return <SecondFactorEnrolmentPrompt teamName={team.name} />;
  }
  return <TeamDashboard team={team} teamRef={teamRef} />;
}

/** /teams/{teamId or alias}: the team dashboard; any 4xx loading the team goes to /404 (§2). */
export function TeamDashboardPage() {
  const { t } = useTranslation();
  const { teamRef = '' } = useParams();
  const query = useTeamQuery(teamRef);

  if (isClientError(query.error)) return <Navigate to={NOT_FOUND_PATH} replace />;
  // Keyed by team: another team starts with its own panel state and dialogs closed.
  if (query.data !== undefined) {
    return <TeamGate key={query.data.teamId} team={query.data} teamRef={teamRef} />;
  }
  return (
    <PageLoadState
      error={query.error}
      loadingText={t('team.loading')}
      onRetry={() => void query.refetch()}
    />
  );
}
