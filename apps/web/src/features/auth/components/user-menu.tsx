import AddAPhotoOutlined from '@mui/icons-material/AddAPhotoOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Tooltip from '@mui/material/Tooltip';
import { displayName } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../lib/auth/get-current-user';
import { useSignOut } from '../hooks/use-sign-out';
import { useSession } from '../../../lib/auth/session/session-context';
import { AccountMenu } from '../../../components/auth/account-menu';

// The contributor upload app (features/upload-app); a literal here, since that feature builds on
// this one and not the other way round.
const UPLOAD_APP_PATH = '/upload';

/** The header's avatar button and its menu: Profile, the upload app and Logout (spec §2). */
export function UserMenu() {
  const { t } = useTranslation();
  const { idClaims } = useSession();
  const { data: user } = useCurrentUser();
  const signOut = useSignOut();
  const name = displayName(
    user ?? { email: idClaims?.email ?? null, username: idClaims?.username ?? null },
  );
  return (
    <AccountMenu
      wrapButton={(button) => <Tooltip title={name}>{button}</Tooltip>}
      items={[
        {
          icon: <PersonOutline fontSize="small" />,
          label: t('userMenu.profile'),
          to: '/profile',
        },
        {
          icon: <AddAPhotoOutlined fontSize="small" />,
          label: t('uploadApp.openLink'),
          to: UPLOAD_APP_PATH,
        },
        {
          icon: <LogoutIcon fontSize="small" />,
          label: t('actions.logout'),
          onClick: () => void signOut(),
        },
      ]}
    />
  );
}
