import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { forgotPasswordRequestSchema, type ForgotPasswordRequest } from '@raccolta/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FormTextField } from '../../../components/form/form-text-field';
import { useForgotPasswordMutation } from '../api/forgot-password';
import { useAuthErrorText } from '../utils/auth-error-text';
import { isFromUploadApp, signInPathFor } from '../utils/upload-app-origin';
import { AuthCard, AuthOutcome } from '../../../components/auth/auth-card';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const [searchParams] = useSearchParams();
  const { control, handleSubmit } = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(forgotPasswordRequestSchema),
    // The "This wasn't me?" link of a security e-mail names the address.
    defaultValues: { email: searchParams.get('email') ?? '' },
  });
  const mutation = useForgotPasswordMutation();
  const onSubmit = handleSubmit((values) => mutation.mutate(values));
  const backToSignIn = (
    <Button component={RouterLink} to={signInPathFor(searchParams)} fullWidth>
      {t('actions.backToSignIn')}
    </Button>
  );

  if (mutation.isSuccess) {
    return (
      <AuthCard title={t('auth.forgot.title')}>
        <AuthOutcome
          severity="success"
          message={t('auth.forgot.success', { email: mutation.variables.email })}
          action={backToSignIn}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.text')}>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack spacing={2}>
          {isFromUploadApp(searchParams) && (
            // Internal contributors have no e-mail to receive a reset link: a manager sets one.
            <Alert severity="info">{t('auth.signIn.forgotInternal')}</Alert>
          )}
          <FormTextField
            control={control}
            name="email"
            type="email"
            label={t('auth.fields.email')}
            autoComplete="email"
            autoFocus
            required
          />
          {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={mutation.isPending}
          >
            {t('auth.forgot.submit')}
          </Button>
          {backToSignIn}
        </Stack>
      </Box>
    </AuthCard>
  );
}
