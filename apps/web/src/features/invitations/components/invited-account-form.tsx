import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { newPasswordFormSchema, type NewPasswordForm } from '@raccolta/contracts';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { RichText } from '../../../components/rich-text';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { useErrorText } from '../../../lib/error-text';
import { ProviderButtons } from '../../../components/auth/provider-buttons';

function LegalLink({ to, children }: { to: string; children?: ReactNode }) {
  // A new tab, so reading the terms does not lose the invitation page.
  return (
    <Link component={RouterLink} to={to} target="_blank" rel="noopener">
      {children}
    </Link>
  );
}

export interface InvitedAccountFormProps {
  email: string;
  pending: boolean;
  error: unknown;
  onSubmit: (password: string) => void;
}

/**
 * newInvitedAccountRequired (spec §2): the invitation made an account for this address, which
 * needs a password (the §5 rules, typed twice) or a social sign-in of the same address. The
 * provider buttons save this page, so the return from the provider lands back here.
 */
export function InvitedAccountForm({ email, pending, error, onSubmit }: InvitedAccountFormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { pathname, search } = useLocation();
  const { control, handleSubmit } = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const submit = handleSubmit((values) => onSubmit(values.password));

  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('invitations.accept.registerText')}
      </Typography>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <TextField
            label={t('auth.fields.email')}
            value={email}
            fullWidth
            autoComplete="username"
            helperText={t('invitations.accept.emailFixed')}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <NewPasswordFields control={control} label={t('auth.fields.password')} />
          <Typography variant="body2" color="text.secondary">
            <RichText
              text={t('invitations.accept.terms')}
              components={{
                terms: <LegalLink to="/terms" />,
                privacy: <LegalLink to="/privacy" />,
              }}
            />
          </Typography>
          {error !== null && <Alert severity="error">{errorText(error)}</Alert>}
          <Button type="submit" variant="contained" size="large" fullWidth loading={pending}>
            {t('invitations.accept.register')}
          </Button>
        </Stack>
      </Box>
      <ProviderButtons invitation={{ redirect: `${pathname}${search}`, email }} />
    </>
  );
}
