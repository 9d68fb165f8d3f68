import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { Collection } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isUnread } from '../utils/unread';

function labelOf(action: CollectionAction, collection: Collection) {
  if (action !== 'toggleRead') return action;
  return isUnread(collection) ? 'markRead' : 'markUnread';
}

/** `toggleRead`: "Mark as unread" on a read collection, "Mark as read" (with its files) otherwise. */
export type CollectionAction = 'edit' | 'download' | 'links' | 'toggleRead' | 'remind' | 'delete';

export interface CollectionMenuProps {
  collection: Collection;
  /** The actions spec §6 allows the signed-in member on this collection; none: no menu. */
  actions: readonly CollectionAction[];
  onAction: (action: CollectionAction, collection: Collection) => void;
}

/** The per-collection action menu. */
export function CollectionMenu({ collection, actions, onAction }: CollectionMenuProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (actions.length === 0) return null;

  return (
    <>
      <IconButton
        edge="end"
        size="small"
        aria-label={t('collections.row.actionsFor', { name: collection.name })}
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
            sx={action === 'delete' ? { color: 'error.main' } : undefined}
            onClick={() => {
              setAnchor(null);
              onAction(action, collection);
            }}
          >
            {t(`collections.actions.${labelOf(action, collection)}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
