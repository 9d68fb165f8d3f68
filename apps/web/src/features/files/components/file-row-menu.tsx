import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import type { FileItem } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** `toggleRead` is "Mark as unread" on a read file, "Mark as read" on an unread one. */
export type FileAction = 'download' | 'toggleRead' | 'delete';

export interface FileRowMenuProps {
  file: FileItem;
  /** The entries the caller's role allows (spec §6); no button when empty. */
  actions: readonly FileAction[];
  onAction: (action: FileAction, file: FileItem) => void;
}

function entryOf(action: FileAction, file: FileItem) {
  if (action === 'download') return { Icon: FileDownloadOutlined, label: 'download' } as const;
  if (action === 'delete') return { Icon: DeleteOutline, label: 'delete' } as const;
  return file.readAt === null
    ? ({ Icon: MarkEmailReadOutlined, label: 'markRead' } as const)
    : ({ Icon: MarkEmailUnreadOutlined, label: 'markUnread' } as const);
}

/** The ⋮ menu of a file row. */
export function FileRowMenu({ file, actions, onAction }: FileRowMenuProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (actions.length === 0) return null;

  return (
    <>
      <IconButton
        size="small"
        aria-label={t('files.actionsFor', { name: file.name })}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => {
          // The row opens the preview on a click; the menu is not the row.
          event.stopPropagation();
          setAnchor(event.currentTarget);
        }}
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        // Clicks inside the menu's portal still bubble through React to the row.
        onClick={(event) => event.stopPropagation()}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {actions.map((action) => {
          const { Icon, label } = entryOf(action, file);
          return (
            <MenuItem
              key={action}
              onClick={() => {
                setAnchor(null);
                onAction(action, file);
              }}
              sx={action === 'delete' ? { color: 'error.main' } : undefined}
            >
              <ListItemIcon sx={action === 'delete' ? { color: 'inherit' } : undefined}>
                <Icon fontSize="small" />
              </ListItemIcon>
              <ListItemText>{t(`files.actions.${label}`)}</ListItemText>
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
