import GoogleIcon from '@mui/icons-material/Google';
import MicrosoftIcon from '@mui/icons-material/Microsoft';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../snackbar';
import { useProvidersQuery, type AuthProvider } from '../../lib/auth/get-providers';
import { startProviderSignIn, type Invitation } from '../../lib/auth/oauth-redirect';

const ICONS: Record<string, ReactNode> = {
  google: <GoogleIcon />,
  microsoft: <MicrosoftIcon />,
};

/**
 * A button per social provider the server is configured for; nothing at all when there is none
 * or the list cannot be loaded (the password form still works).
 */
export function ProviderButtons({
  invitation,
  returnTo,
}: {
  invitation?: Invitation;
  /** Where to land once signed in (the upload app), instead of the team list. */
  returnTo?: string;
}) {
  const { t, i18n } = useTranslation();
  const { show } = useSnackbar();
  const { data: providers } = useProvidersQuery();
  const [leavingFor, setLeavingFor] = useState<string | null>(null);

  useEffect(() => {
    // Coming back with the browser's Back button restores this page as it was left: spinning.
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setLeavingFor(null);
    };
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  if (providers === undefined || providers.length === 0) return null;

  const start = (provider: AuthProvider) => {
    setLeavingFor(provider.id);
    const locale = i18n.language.startsWith('it') ? 'it' : 'en';
    startProviderSignIn(provider.id, {
      locale,
      ...(invitation ? { invitation } : {}),
      ...(returnTo ? { returnTo } : {}),
    }).catch(() => {
      setLeavingFor(null);
      show(t('auth.errors.externalIdentifierError', { provider: provider.name }), 'error', {
        autoHideDuration: ERROR_TOAST_DURATION_MS,
      });
    });
  };

  return (
    <Stack spacing={1.5} sx={{ mt: 3 }}>
      <Divider sx={{ color: 'text.secondary', typography: 'body2' }}>
        {t('auth.providers.or')}
      </Divider>
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="outlined"
          color="inherit"
          size="large"
          fullWidth
          startIcon={ICONS[provider.id]}
          loading={leavingFor === provider.id}
          disabled={leavingFor !== null && leavingFor !== provider.id}
          onClick={() => start(provider)}
          // The brand buttons sit below the main action: a quiet outline, not a second primary.
          sx={{ borderColor: 'divider', '&:hover': { borderColor: 'text.secondary' } }}
        >
          {t('auth.providers.continueWith', { provider: provider.name })}
        </Button>
      ))}
    </Stack>
  );
}
