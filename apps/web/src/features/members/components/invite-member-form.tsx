import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  ASSIGNABLE_ROLES,
  DEFAULT_INVITE_ROLE,
  EMAIL_MAX_LENGTH,
  inviteMemberRequestSchema,
  NICKNAME_MAX_LENGTH,
} from '@raccolta/contracts';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { withoutLeadingSpaces } from '../../../components/form/transforms';
import { useErrorToast, useSnackbar } from '../../../components/snackbar';
import { isApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { uiLocale } from '../../../lib/locale';
import { validationText } from '../../../lib/validation-text';
import { useInviteMemberMutation } from '../api/invite-member';

// The invitation mail is written in the inviter's interface language, not typed in a field.
const inviteFormSchema = inviteMemberRequestSchema.omit({ locale: true });
type InviteForm = z.infer<typeof inviteFormSchema>;

const mailFailed = (error: unknown) =>
  isApiError(error) && error.errorCode === 'cannotSendInvitationEmail';

/** Invite by e-mail: e-mail, the name in the team and a role (uploader unless chosen). */
export function InviteMemberForm({ teamId, onDone }: { teamId: string; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
  const errorText = useErrorText();
  const { control, handleSubmit } = useForm<InviteForm>({
    resolver: zodResolver(inviteFormSchema),
    defaultValues: { email: '', nickname: '', role: DEFAULT_INVITE_ROLE },
  });
  const mutation = useInviteMemberMutation(teamId);

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(
      { ...values, locale: uiLocale(i18n.language) },
      {
        onSuccess: () => {
          show(t('members.done.invited', { email: values.email }), 'success');
          onDone();
        },
        onError: (error) => {
          // The member was added and the mail keeps being retried: say so and close.
          if (mailFailed(error)) {
            showError(error);
            onDone();
          }
        },
      },
    ),
  );

  // Duplicates stay in the dialog, beside the values to correct.
  const error = mutation.error !== null && !mailFailed(mutation.error) ? mutation.error : null;

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 2 }}>
        <DialogContentText sx={{ mb: 2 }}>{t('members.add.inviteText')}</DialogContentText>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="email"
            type="email"
            label={t('members.fields.email')}
            autoComplete="off"
            maxLength={EMAIL_MAX_LENGTH}
            autoFocus
            required
          />
          <FormTextField
            control={control}
            name="nickname"
            label={t('members.fields.nickname')}
            helperText={t('members.fields.nicknameHelp')}
            autoComplete="off"
            maxLength={NICKNAME_MAX_LENGTH}
            transform={withoutLeadingSpaces}
            required
          />
          <Controller
            control={control}
            name="role"
            render={({ field, fieldState }) => (
              <TextField
                select
                fullWidth
                required
                label={t('members.fields.role')}
                name={field.name}
                value={field.value}
                inputRef={field.ref}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error !== undefined}
                helperText={
                  fieldState.error === undefined
                    ? t(`members.roleDescriptions.${field.value}`)
                    : validationText(t, fieldState.error.message)
                }
              >
                {ASSIGNABLE_ROLES.map((role) => (
                  <MenuItem key={role} value={role}>
                    {t(`roles.${role}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {error !== null && <Alert severity="error">{errorText(error)}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onDone} disabled={mutation.isPending}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={mutation.isPending}>
          {t('members.add.invite')}
        </Button>
      </DialogActions>
    </Box>
  );
}
