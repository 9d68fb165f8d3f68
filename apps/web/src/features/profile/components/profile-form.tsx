import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  PREFERRED_NAME_MAX_LENGTH,
  updateProfileRequestSchema,
  type UpdateProfileRequest,
  type User,
} from '@raccolta/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form/form-text-field';
import { withoutLeadingSpaces } from '../../../components/form/transforms';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { useErrorText } from '../../../lib/error-text';
import { useUpdateProfileMutation } from '../api/update-profile';

function formValues(user: User): UpdateProfileRequest {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    nickname: user.nickname ?? '',
  };
}

/** Spec §2 "Profile": read-only e-mail; first name, last name and nickname editable. */
export function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { show } = useSnackbar();
  const { control, handleSubmit, reset, formState } = useForm<UpdateProfileRequest>({
    resolver: zodResolver(updateProfileRequestSchema),
    defaultValues: formValues(user),
  });
  const mutation = useUpdateProfileMutation();

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(values, {
      onSuccess: (saved) => {
        // What was saved is the new starting point: Save is disabled again until the next edit.
        reset(formValues(saved));
        show(t('profile.userProfileUpdateSuccess'), 'success');
      },
      onError: (error) =>
        show(errorText(error), 'error', { autoHideDuration: ERROR_TOAST_DURATION_MS }),
    }),
  );

  // Internal members have no e-mail: their username is what identifies them instead.
  const identity =
    user.email !== null
      ? { label: t('profile.email'), value: user.email }
      : { label: t('profile.username'), value: user.username ?? '' };

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack spacing={2.5}>
        <TextField
          label={identity.label}
          value={identity.value}
          fullWidth
          slotProps={{ htmlInput: { readOnly: true } }}
          helperText={t('profile.emailReadOnly')}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5}>
          <FormTextField
            control={control}
            name="firstName"
            label={t('profile.firstName')}
            autoComplete="given-name"
            required
          />
          <FormTextField
            control={control}
            name="lastName"
            label={t('profile.lastName')}
            autoComplete="family-name"
            required
          />
        </Stack>
        <FormTextField
          control={control}
          name="nickname"
          label={t('profile.nickname')}
          helperText={t('auth.fields.nicknameHelp')}
          autoComplete="nickname"
          maxLength={PREFERRED_NAME_MAX_LENGTH}
          transform={withoutLeadingSpaces}
          required
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={!formState.isDirty}
            loading={mutation.isPending}
            sx={{ width: { xs: '100%', sm: 'auto' }, minWidth: 140 }}
          >
            {t('actions.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
