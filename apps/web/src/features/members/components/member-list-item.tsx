import Box from '@mui/material/Box';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import type { Member, MemberActionInput } from '@raccolta/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';
import { VISUALLY_HIDDEN } from '../../../lib/visually-hidden';
import type { MemberAction } from '../utils/member-actions';
import { MemberMenu } from './member-menu';
import { MemberStatusChip } from './member-status-chip';
import { RoleBadge } from './role-badge';

/** The avatar's column: 32 px and a gap. */
const AVATAR_COLUMN_PX = 44;

export interface MemberListItemProps {
  member: Member;
  /** Null until the signed-in user's own role is known: no menu before then. */
  actor: MemberActionInput['actor'] | null;
  now: number;
  onAction: (action: MemberAction, member: Member) => void;
  /** When set, the member's name is a button (filters the collections by them). */
  onSelect?: ((member: Member) => void) | undefined;
}

export function MemberListItem({ member, actor, now, onAction, onSelect }: MemberListItemProps) {
  const { t } = useTranslation();
  const self = actor?.userId === member.userId;
  const describedBy = useId();
  const content = (
    <>
      <ListItemAvatar sx={{ minWidth: AVATAR_COLUMN_PX, mt: 0.5 }}>
        <UserAvatar name={member.nickname} src={member.avatarUrl} size={32} />
      </ListItemAvatar>
      <ListItemText
        sx={{ my: 0.5, pr: onSelect === undefined ? 3 : 0, minWidth: 0 }}
        primary={self ? t('members.nicknameSelf', { name: member.nickname }) : member.nickname}
        secondary={
          // Compact chips on a line of their own, under the avatar as well: in the 250 px panel
          // (spec §9) the longest Italian pair ("Amministratore", "Invito rifiutato") fits.
          <Stack
            direction="row"
            useFlexGap
            sx={{
              flexWrap: 'wrap',
              gap: 0.5,
              mt: 1,
              ml: `-${AVATAR_COLUMN_PX}px`,
              width: `calc(100% + ${AVATAR_COLUMN_PX}px)`,
              '& .MuiChip-root': { height: 20, fontSize: '0.6875rem' },
              '& .MuiChip-label': { px: 0.75 },
            }}
          >
            <RoleBadge role={member.role} />
            <MemberStatusChip member={member} now={now} />
          </Stack>
        }
        slotProps={{
          primary: { noWrap: true, title: member.nickname },
          secondary: { component: 'div' },
        }}
      />
    </>
  );
  return (
    <ListItem
      disableGutters
      disablePadding={onSelect !== undefined}
      sx={{ px: onSelect === undefined ? 1.5 : 0, alignItems: 'flex-start' }}
      secondaryAction={
        actor !== null && <MemberMenu actor={actor} member={member} onAction={onAction} />
      }
    >
      {onSelect === undefined ? (
        content
      ) : (
        // Named by what it shows (WCAG 2.5.3: a voice user says what they see), and described
        // by what a click does.
        <ListItemButton
          aria-describedby={describedBy}
          title={t('members.showCollectionsOf', { name: member.nickname })}
          onClick={() => onSelect(member)}
          sx={{ px: 1.5, alignItems: 'flex-start' }}
        >
          {content}
          <Box component="span" id={describedBy} sx={VISUALLY_HIDDEN}>
            {t('members.showCollectionsOf', { name: member.nickname })}
          </Box>
        </ListItemButton>
      )}
    </ListItem>
  );
}
