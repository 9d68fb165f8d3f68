import LogoutIcon from '@mui/icons-material/Logout';
import OpenInBrowser from '@mui/icons-material/OpenInBrowser';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { displayName } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { UserAvatar } from '../../../components/user-avatar';
import { useCurrentUser, useSession } from '../../auth';
import { UPLOAD_SIGN_IN_PATH } from '../utils/upload-paths';

/** The account button of the upload app: who is signed in, the team app, sign out. */
export function UploadAppMenu({ teamAppPath }: { teamAppPath: string }) {
  const { t } = useTranslation();
  const { idClaims, signOut } = useSession();
  const { data: user } = useCurrentUser();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const name = displayName(
    user ?? { email: idClaims?.email ?? null, username: idClaims?.username ?? null },
  );
  const secondary = user?.email ?? user?.username ?? null;
  const close = () => setAnchor(null);

  return (
    <>
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
        <MenuItem component={RouterLink} to={teamAppPath} onClick={close}>
          <ListItemIcon>
            <OpenInBrowser fontSize="small" />
          </ListItemIcon>
          {t('uploadApp.menu.teamApp')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            void signOut().then(() => navigate(UPLOAD_SIGN_IN_PATH, { replace: true }));
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
