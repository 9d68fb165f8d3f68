import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { displayName } from '@raccolta/contracts';
import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { UserAvatar } from '../user-avatar';
import { useCurrentUser } from '../../lib/auth/get-current-user';
import { useSession } from '../../lib/auth/session/session-context';

export interface AccountMenuItem {
  icon: ReactNode;
  label: string;
  /** A link, or an action; the menu closes either way. */
  to?: string;
  onClick?: () => void;
}

/**
 * The avatar button of a signed-in page and its menu: who is signed in, then `items`. The team
 * app's header and the upload app share it. `wrapButton` may add a tooltip around the button.
 */
export function AccountMenu({
  items,
  wrapButton = (button) => button,
}: {
  items: AccountMenuItem[];
  wrapButton?: (button: ReactElement) => ReactElement;
}) {
  const { t } = useTranslation();
  const { idClaims } = useSession();
  const { data: user } = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  // Until the profile arrives, the ID token already knows who this is.
  const name = displayName(
    user ?? { email: idClaims?.email ?? null, username: idClaims?.username ?? null },
  );
  const secondary = user?.email ?? user?.username ?? null;
  const close = () => setAnchor(null);

  return (
    <>
      {wrapButton(
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={t('userMenu.open')}
          aria-controls={anchor ? menuId : undefined}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          sx={{ p: 0.5 }}
        >
          <UserAvatar name={name} src={user?.avatarUrl} />
        </IconButton>,
      )}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 220, maxWidth: 'calc(100vw - 32px)' } } }}
      >
        <Box component="li" role="none" sx={{ px: 2, py: 1 }}>
          <Typography variant="subtitle2" noWrap>
            {name}
          </Typography>
          {secondary !== null && secondary !== name && (
            <Typography variant="body2" color="text.secondary" noWrap>
              {secondary}
            </Typography>
          )}
        </Box>
        <Divider component="li" />
        {items.map((item) =>
          item.to ? (
            <MenuItem key={item.label} component={RouterLink} to={item.to} onClick={close}>
              <ListItemIcon>{item.icon}</ListItemIcon>
              {item.label}
            </MenuItem>
          ) : (
            <MenuItem
              key={item.label}
              onClick={() => {
                close();
                item.onClick?.();
              }}
            >
              <ListItemIcon>{item.icon}</ListItemIcon>
              {item.label}
            </MenuItem>
          ),
        )}
      </Menu>
    </>
  );
}
