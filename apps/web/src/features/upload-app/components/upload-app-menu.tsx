import LogoutIcon from '@mui/icons-material/Logout';
import OpenInBrowser from '@mui/icons-material/OpenInBrowser';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AccountMenu } from '../../../components/auth/account-menu';
import { useSession } from '../../../lib/auth/session/session-context';
import { UPLOAD_SIGN_IN_PATH } from '../../../lib/upload-paths';

/** The account button of the upload app: who is signed in, the team app, sign out. */
export function UploadAppMenu({ teamAppPath }: { teamAppPath: string }) {
  const { t } = useTranslation();
  const { signOut } = useSession();
  const navigate = useNavigate();
  return (
    <AccountMenu
      items={[
        {
          icon: <OpenInBrowser fontSize="small" />,
          label: t('uploadApp.menu.teamApp'),
          to: teamAppPath,
        },
        {
          icon: <LogoutIcon fontSize="small" />,
          label: t('actions.logout'),
          onClick: () =>
            void signOut().then(() => navigate(UPLOAD_SIGN_IN_PATH, { replace: true })),
        },
      ]}
    />
  );
}
