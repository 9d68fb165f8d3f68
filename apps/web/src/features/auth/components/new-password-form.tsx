import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import {
  newPasswordFormSchema,
  type NewPasswordForm as NewPasswordFormValues,
  type NewPasswordRequiredData,
} from '@raccolta/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { isApiError } from '../../../lib/api-client';
import { useNewPasswordMutation } from '../api/new-password';
import { useAuthErrorText } from '../utils/auth-error-text';

/** Replaces the sign-in form when the server demands a new password (spec §2, §4). */
export function NewPasswordForm({
  challenge,
  onCancel,
}: {
  challenge: NewPasswordRequiredData;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const { control, handleSubmit, setError } = useForm<NewPasswordFormValues>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const mutation = useNewPasswordMutation(challenge);
  const onSubmit = handleSubmit((values) =>
    mutation.mutate(values, {
      onError: (error) => {
        // The generated password again: said on the field, where the fix is typed.
        if (isApiError(error) && error.errorCode === 'samePassword') {
          setError('password', { message: 'samePassword' }, { shouldFocus: true });
        }
      },
    }),
  );
  const samePassword = isApiError(mutation.error) && mutation.error.errorCode === 'samePassword';

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack spacing={2}>
        {/* Lets a password manager save the new password under the right account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={challenge.username}
          readOnly
          hidden
        />
        <NewPasswordFields control={control} label={t('auth.fields.newPassword')} />
        {mutation.error !== null && !samePassword && (
          <Alert severity="error">{errorText(mutation.error)}</Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={mutation.isPending}
        >
          {t('auth.newPassword.submit')}
        </Button>
        <Button onClick={onCancel} disabled={mutation.isPending}>
          {t('actions.backToSignIn')}
        </Button>
      </Stack>
    </Box>
  );
}
