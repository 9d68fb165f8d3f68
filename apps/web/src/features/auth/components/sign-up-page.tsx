import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PREFERRED_NAME_MAX_LENGTH, signUpFormSchema, type SignUpForm } from '@raccolta/contracts';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { RichText } from '../../../components/rich-text';
import { FormTextField } from '../../../components/form/form-text-field';
import { withoutLeadingSpaces } from '../../../components/form/transforms';
import { UPLOAD_APP_PATH } from '../../../lib/upload-paths';
import { useSignUpMutation } from '../api/sign-up';
import { useAuthErrorText } from '../utils/auth-error-text';
import { isFromUploadApp, signInPathFor } from '../utils/upload-app-origin';
import { AuthCard, AuthOutcome, SignInButton } from '../../../components/auth/auth-card';
import { ProviderButtons } from '../../../components/auth/provider-buttons';

function LegalLink({ to, children }: { to: string; children?: ReactNode }) {
  // A new tab, so reading the terms does not throw away what was typed.
  return (
    <Link component={RouterLink} to={to} target="_blank" rel="noopener">
      {children}
    </Link>
  );
}

export function SignUpPage() {
  const { t, i18n } = useTranslation();
  const errorText = useAuthErrorText();
  const [searchParams] = useSearchParams();
  const signInPath = signInPathFor(searchParams);
  const { control, handleSubmit } = useForm<SignUpForm>({
    resolver: zodResolver(signUpFormSchema),
    defaultValues: { email: '', password: '', nickname: '' },
  });
  const mutation = useSignUpMutation();
  const onSubmit = handleSubmit((values) =>
    mutation.mutate({ ...values, locale: i18n.language.startsWith('it') ? 'it' : 'en' }),
  );

  if (mutation.isSuccess) {
    return (
      <AuthCard title={t('auth.signUp.doneTitle')}>
        <AuthOutcome
          severity="success"
          message={t('auth.signUp.success', { email: mutation.variables.email })}
          action={<SignInButton to={signInPath} />}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.signUp.title')} subtitle={t('auth.signUp.subtitle')}>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="email"
            type="email"
            label={t('auth.fields.email')}
            autoComplete="email"
            autoFocus
            required
          />
          <FormTextField
            control={control}
            name="password"
            type="password"
            label={t('auth.fields.password')}
            helperText={t('auth.fields.passwordHelp')}
            autoComplete="new-password"
            required
          />
          <FormTextField
            control={control}
            name="nickname"
            label={t('auth.fields.nickname')}
            helperText={t('auth.fields.nicknameHelp')}
            autoComplete="nickname"
            maxLength={PREFERRED_NAME_MAX_LENGTH}
            transform={withoutLeadingSpaces}
            required
          />
          <Typography variant="body2" color="text.secondary">
            <RichText
              text={t('auth.signUp.terms')}
              components={{
                terms: <LegalLink to="/terms" />,
                privacy: <LegalLink to="/privacy" />,
              }}
            />
          </Typography>
          {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={mutation.isPending}
          >
            {t('auth.signUp.submit')}
          </Button>
          <Typography variant="body2" sx={{ textAlign: 'center' }}>
            {t('auth.signUp.haveAccount')}{' '}
            <Link component={RouterLink} to={signInPath}>
              {t('auth.signUp.signInLink')}
            </Link>
          </Typography>
        </Stack>
      </Box>
      <ProviderButtons returnTo={isFromUploadApp(searchParams) ? UPLOAD_APP_PATH : undefined} />
    </AuthCard>
  );
}
