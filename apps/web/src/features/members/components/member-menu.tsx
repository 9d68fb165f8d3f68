import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { Member, MemberActionInput } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { memberActionsFor, type MemberAction } from '../utils/member-actions';

export interface MemberMenuProps {
  actor: MemberActionInput['actor'];
  member: Member;
  onAction: (action: MemberAction, member: Member) => void;
}

/** The per-member action menu with exactly the entries spec §6 allows this actor on this member. */
export function MemberMenu({ actor, member, onAction }: MemberMenuProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const actions = memberActionsFor({ actor, member });
  if (actions.length === 0) return null;

  return (
    <>
      <IconButton
        edge="end"
        size="small"
        aria-label={t('members.actionsFor', { name: member.nickname })}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {actions.map((action) => (
          <MenuItem
            key={action}
            onClick={() => {
              setAnchor(null);
              onAction(action, member);
            }}
            sx={action === 'remove' ? { color: 'error.main' } : undefined}
          >
            {t(`members.actions.${action}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
