import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import {
  resetLinkQuerySchema,
  resetPasswordFormSchema,
  type ResetPasswordForm,
} from '@raccolta/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { useResetPasswordMutation } from '../api/reset-password';
import { useAuthErrorText } from '../utils/auth-error-text';
import { AuthCard, AuthOutcome, SignInButton } from '../../../components/auth/auth-card';

function NewLinkButton() {
  const { t } = useTranslation();
  return (
    <Button component={RouterLink} to="/auth/forgot" variant="outlined" fullWidth>
      {t('auth.reset.newLink')}
    </Button>
  );
}

export function ResetPasswordForm({ email, code }: { email: string; code: string }) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const { control, handleSubmit } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const mutation = useResetPasswordMutation();
  const onSubmit = handleSubmit((values) =>
    mutation.mutate({ email, code, newPassword: values.password }),
  );

  if (mutation.isSuccess) {
    return (
      <AuthOutcome severity="success" message={t('auth.reset.success')} action={<SignInButton />} />
    );
  }
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack spacing={2}>
        <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
        <NewPasswordFields control={control} label={t('auth.fields.newPassword')} />
        {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={mutation.isPending}
        >
          {t('auth.reset.submit')}
        </Button>
        {mutation.error !== null && <NewLinkButton />}
      </Stack>
    </Box>
  );
}

/** /auth/reset?email&code, the link of the reset e-mail. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const link = resetLinkQuerySchema.safeParse({
    email: searchParams.get('email') ?? undefined,
    code: searchParams.get('code') ?? undefined,
  });

  return (
    <AuthCard
      title={t('auth.reset.title')}
      {...(link.success ? { subtitle: t('auth.reset.text', { email: link.data.email }) } : {})}
    >
      {link.success ? (
        <ResetPasswordForm email={link.data.email} code={link.data.code} />
      ) : (
        <AuthOutcome
          severity="error"
          message={t('validation.invalidResetLink')}
          action={<NewLinkButton />}
        />
      )}
    </AuthCard>
  );
}
