import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { displayName } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';
import { useErrorText } from '../../../lib/error-text';
import { useCurrentUser } from '../../../lib/auth/get-current-user';
import { ProfileForm } from './profile-form';
import { SecondFactorsSection } from './second-factors-section';
import { SessionsSection } from './sessions-section';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function ProfilePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('profile.title'));
  const errorText = useErrorText();
  const { data: user, error, refetch, isFetching } = useCurrentUser();

  let body;
  if (user !== undefined) {
    body = (
      <>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 3, minWidth: 0 }}>
          <UserAvatar name={displayName(user)} src={user.avatarUrl} size={56} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="p" noWrap>
              {displayName(user)}
            </Typography>
            {user.email !== null && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {user.email}
              </Typography>
            )}
          </Box>
        </Stack>
        {/* Keyed by user: another account signing in gets a fresh form, not the old values. */}
        <ProfileForm key={user.userId} user={user} />
        <SecondFactorsSection />
      </>
    );
  } else if (error !== null) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void refetch()} disabled={isFetching}>
            {t('actions.retry')}
          </Button>
        }
      >
        {errorText(error)}
      </Alert>
    );
  } else {
    body = (
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>{t('profile.loading')}</Typography>
      </Stack>
    );
  }

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, sm: 6 } }}>
      <Typography
        variant="h4"
        component="h1"
        sx={{ mb: 3, fontSize: { xs: '1.75rem', sm: '2.125rem' } }}
      >
        {t('profile.title')}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        {body}
      </Paper>
      {user !== undefined && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
          <SessionsSection />
        </Paper>
      )}
    </Container>
  );
}
