import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import type { Member, MemberActionInput } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';
import type { MemberAction } from '../utils/member-actions';
import { MemberMenu } from './member-menu';
import { MemberStatusChip } from './member-status-chip';
import { RoleBadge } from './role-badge';

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
  const content = (
    <>
      <ListItemAvatar sx={{ minWidth: 44, mt: 0.5 }}>
        <UserAvatar name={member.nickname} src={member.avatarUrl} size={32} />
      </ListItemAvatar>
      <ListItemText
        sx={{ my: 0.5, pr: 3, minWidth: 0 }}
        primary={self ? t('members.nicknameSelf', { name: member.nickname }) : member.nickname}
        secondary={
          <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
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
        <ListItemButton
          aria-label={t('members.showCollectionsOf', { name: member.nickname })}
          onClick={() => onSelect(member)}
          sx={{ px: 1.5, alignItems: 'flex-start' }}
        >
          {content}
        </ListItemButton>
      )}
    </ListItem>
  );
}
