import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LabelOutlined from '@mui/icons-material/LabelOutlined';
import MailOutline from '@mui/icons-material/MailOutline';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import {
  canAddAlias,
  canManageTrash,
  canRenameTeam,
  canSeeTeamDetails,
  type MemberRole,
  type Team,
} from '@raccolta/contracts';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useTeamQuery } from '../../../lib/teams/get-team';
import { useTeamActor } from '../../../lib/teams/use-team-actor';
import { selectedTeamRef } from '../utils/selected-team';
import { AddAliasDialog } from './add-alias-dialog';
import { DigestDialog } from './digest-dialog';
import { RenameTeamDialog } from './rename-team-dialog';
import { TeamAvatar } from '../../../components/team-avatar';
import { TeamDetailsDialog } from './team-details-dialog';

type TeamAction = 'details' | 'rename' | 'addAlias' | 'trash' | 'digest';

// Spec §6 header menu: Details needs readTeam, Rename updateTeam, Add Alias createTeamAlias.
const TEAM_ACTIONS: {
  action: TeamAction;
  allowed: (role: MemberRole) => boolean;
  icon: ReactNode;
}[] = [
  { action: 'details', allowed: canSeeTeamDetails, icon: <InfoOutlined fontSize="small" /> },
  {
    action: 'rename',
    allowed: canRenameTeam,
    icon: <DriveFileRenameOutline fontSize="small" />,
  },
  { action: 'addAlias', allowed: canAddAlias, icon: <LabelOutlined fontSize="small" /> },
  // Not in §6's header menu: the trash (docs/operations.md), for those who may delete.
  { action: 'trash', allowed: canManageTrash, icon: <DeleteOutline fontSize="small" /> },
  // Every member's own choice (issue #36); the dialog says when there is no address to send to.
  { action: 'digest', allowed: () => true, icon: <MailOutline fontSize="small" /> },
];

export function teamMenuActions(role: MemberRole): TeamAction[] {
  return TEAM_ACTIONS.filter((entry) => entry.allowed(role)).map((entry) => entry.action);
}

function TeamDialog({
  action,
  team,
  role,
  onClose,
}: {
  action: TeamAction;
  team: Team;
  role: MemberRole;
  onClose: () => void;
}) {
  switch (action) {
    case 'details':
      return (
        <TeamDetailsDialog
          team={team}
          canChange={canRenameTeam(role)}
          role={role}
          onClose={onClose}
        />
      );
    case 'rename':
      return <RenameTeamDialog team={team} onClose={onClose} />;
    case 'addAlias':
      return <AddAliasDialog team={team} onClose={onClose} />;
    case 'digest':
      return <DigestDialog team={team} onClose={onClose} />;
    case 'trash':
      return null;
  }
}

/** The header's selected team: name and avatar, with the team menu. */
export function TeamMenu({ teamRef }: { teamRef: string }) {
  const { t } = useTranslation();
  const { data: team } = useTeamQuery(teamRef);
  const actor = useTeamActor(team?.teamId ?? null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState<TeamAction | null>(null);
  const menuId = useId();
  const navigate = useNavigate();
  if (team === undefined) return null;

  const actions = actor === null ? [] : teamMenuActions(actor.role);
  return (
    <>
      <Button
        color="inherit"
        onClick={(event) => setAnchor(event.currentTarget)}
        disabled={actions.length === 0}
        aria-label={t('team.menu.open', { name: team.name })}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        endIcon={<ArrowDropDown />}
        sx={{
          minWidth: 0,
          gap: 0.5,
          px: 1,
          // The name gives way first on a phone; the menu arrow stays visible.
          maxWidth: { xs: 'calc(100vw - 180px)', sm: 360, md: 480 },
          '&.Mui-disabled': { color: 'inherit' },
        }}
      >
        <TeamAvatar team={team} size={28} />
        <Typography component="span" noWrap sx={{ fontWeight: 600, minWidth: 0 }}>
          {team.name}
        </Typography>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ paper: { sx: { minWidth: 200 } } }}
      >
        {TEAM_ACTIONS.filter((entry) => actions.includes(entry.action)).map((entry) => (
          <MenuItem
            key={entry.action}
            onClick={() => {
              setAnchor(null);
              // The trash is a page of its own; the others open a dialog here.
              if (entry.action === 'trash')
                void navigate(`/teams/${encodeURIComponent(teamRef)}/trash`);
              else setOpen(entry.action);
            }}
          >
            <ListItemIcon>{entry.icon}</ListItemIcon>
            {t(`team.menu.${entry.action}`)}
          </MenuItem>
        ))}
      </Menu>
      {open !== null && actor !== null && (
        <TeamDialog action={open} team={team} role={actor.role} onClose={() => setOpen(null)} />
      )}
    </>
  );
}

/** The team menu of the team whose page is shown, if any. */
export function SelectedTeamMenu() {
  const { pathname } = useLocation();
  const ref = selectedTeamRef(pathname);
  // Keyed: another team's menu starts closed, with no dialog of the previous one left open.
  return ref === null ? null : <TeamMenu key={ref} teamRef={ref} />;
}
