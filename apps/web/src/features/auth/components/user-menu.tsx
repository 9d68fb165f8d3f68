import AddAPhotoOutlined from '@mui/icons-material/AddAPhotoOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { displayName } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { UserAvatar } from '../../../components/user-avatar';
import { useCurrentUser } from '../api/get-current-user';
import { useSignOut } from '../hooks/use-sign-out';
import { useSession } from '../session/session-context';

// The contributor upload app (features/upload-app); a literal here, since that feature builds on
// this one and not the other way round.
const UPLOAD_APP_PATH = '/upload';

/** The header's avatar button and its menu: Profile, the upload app and Logout (spec §2). */
export function UserMenu() {
  const { t } = useTranslation();
  const { idClaims } = useSession();
  const { data: user } = useCurrentUser();
  const signOut = useSignOut();
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
      <Tooltip title={name}>
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={t('userMenu.open')}
          aria-controls={anchor ? menuId : undefined}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          sx={{ p: 0.5 }}
        >
          <UserAvatar name={name} src={user?.avatarUrl} />
        </IconButton>
      </Tooltip>
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
        <MenuItem component={RouterLink} to="/profile" onClick={close}>
          <ListItemIcon>
            <PersonOutline fontSize="small" />
          </ListItemIcon>
          {t('userMenu.profile')}
        </MenuItem>
        <MenuItem component={RouterLink} to={UPLOAD_APP_PATH} onClick={close}>
          <ListItemIcon>
            <AddAPhotoOutlined fontSize="small" />
          </ListItemIcon>
          {t('uploadApp.openLink')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            void signOut();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('actions.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
