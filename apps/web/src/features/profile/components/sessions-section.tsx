import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Session } from '@raccolta/contracts';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { useErrorText } from '../../../lib/error-text';
import { formatDate } from '../../../lib/format-date';
import { formatRelativeTime } from '../../../lib/format-relative-time';
import { useNow } from '../../../lib/use-now';
import {
  useRevokeOtherSessionsMutation,
  useRevokeSessionMutation,
  useSessionsQuery,
} from '../api/sessions';

function useDeviceName(): (session: Session) => string {
  const { t } = useTranslation();
  return ({ browser, os }) => {
    if (browser !== null && os !== null) return t('profile.sessions.device', { browser, os });
    return browser ?? os ?? t('profile.sessions.unknownDevice');
  };
}

function SessionRow({
  session,
  now,
  onSignOut,
  pending,
}: {
  session: Session;
  now: number;
  onSignOut: () => void;
  pending: boolean;
}) {
  const { t, i18n } = useTranslation();
  const deviceName = useDeviceName();
  const name = deviceName(session);
  return (
    <Stack
      component="li"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={{ xs: 1, sm: 2 }}
      sx={{ py: 1.5, alignItems: { xs: 'stretch', sm: 'center' }, minWidth: 0 }}
      data-testid="session"
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{name}</Typography>
          {session.current && (
            <Chip label={t('profile.sessions.thisDevice')} color="primary" size="small" />
          )}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {t('profile.sessions.lastActive', {
            when: formatRelativeTime(session.lastUsedAt, i18n.language, now),
          })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('profile.sessions.created', { date: formatDate(session.createdAt, i18n.language) })}
        </Typography>
      </Box>
      {!session.current && (
        <Button
          variant="outlined"
          size="small"
          onClick={onSignOut}
          loading={pending}
          aria-label={t('profile.sessions.signOutLabel', { device: name })}
          sx={{ alignSelf: { xs: 'flex-start', sm: 'center' }, flexShrink: 0 }}
        >
          {t('profile.sessions.signOut')}
        </Button>
      )}
    </Stack>
  );
}

/** The profile's Sessions: every signed-in device, signed out one by one or all but this one. */
export function SessionsSection() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const snackbar = useSnackbar();
  const now = useNow();
  const deviceName = useDeviceName();
  const sessions = useSessionsQuery();
  const revoke = useRevokeSessionMutation();
  const revokeOthers = useRevokeOtherSessionsMutation();
  const [confirming, setConfirming] = useState(false);

  const showError = (error: unknown) =>
    snackbar.show(errorText(error), 'error', { autoHideDuration: ERROR_TOAST_DURATION_MS });
  const signOut = (session: Session) =>
    revoke.mutate(session.sessionId, {
      onSuccess: () =>
        snackbar.show(t('profile.sessions.signedOut', { device: deviceName(session) }), 'success'),
      onError: showError,
    });
  const signOutOthers = () =>
    revokeOthers.mutate(undefined, {
      onSuccess: ({ revoked }) => {
        setConfirming(false);
        snackbar.show(t('profile.sessions.signedOutOthers', { count: revoked }), 'success');
      },
      onError: (error) => {
        setConfirming(false);
        showError(error);
      },
    });

  let body;
  if (sessions.data !== undefined) {
    const others = sessions.data.filter((s) => !s.current).length;
    body = (
      <>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {sessions.data.map((session, index) => (
            <Fragment key={session.sessionId}>
              {index > 0 && <Divider component="li" aria-hidden />}
              <SessionRow
                session={session}
                now={now}
                onSignOut={() => signOut(session)}
                pending={revoke.isPending && revoke.variables === session.sessionId}
              />
            </Fragment>
          ))}
        </Box>
        {others === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {t('profile.sessions.noOthers')}
          </Typography>
        ) : (
          <Button
            variant="outlined"
            color="error"
            sx={{ mt: 2, width: { xs: '100%', sm: 'auto' } }}
            onClick={() => setConfirming(true)}
          >
            {t('profile.sessions.signOutOthers')}
          </Button>
        )}
      </>
    );
  } else if (sessions.error !== null) {
    body = (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => void sessions.refetch()}
            disabled={sessions.isFetching}
          >
            {t('actions.retry')}
          </Button>
        }
      >
        {errorText(sessions.error)}
      </Alert>
    );
  } else {
    body = (
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>{t('profile.sessions.loading')}</Typography>
      </Stack>
    );
  }

  return (
    <Box component="section" aria-labelledby="profile-sessions-title">
      <Typography variant="h6" component="h2" id="profile-sessions-title" sx={{ mb: 0.5 }}>
        {t('profile.sessions.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('profile.sessions.intro')}
      </Typography>
      {body}
      <ConfirmDialog
        open={confirming}
        title={t('profile.sessions.confirmTitle')}
        confirmLabel={t('profile.sessions.confirmAction')}
        destructive
        pending={revokeOthers.isPending}
        onConfirm={signOutOthers}
        onClose={() => setConfirming(false)}
      >
        {t('profile.sessions.confirmText')}
      </ConfirmDialog>
    </Box>
  );
}
