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
  createInternalMemberRequestSchema,
  INTERNAL_MEMBER_ROLE,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  type Credentials,
} from '@raccolta/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { useErrorText } from '../../../lib/error-text';
import { uiLocale } from '../../../lib/locale';
import { useCreateInternalMemberMutation } from '../api/create-internal-member';

const internalFormSchema = createInternalMemberRequestSchema.omit({ locale: true });
type InternalForm = z.infer<typeof internalFormSchema>;

/**
 * An internal contributor: a username only. The role is always uploader, shown with the selector
 * disabled so the manager sees what the account will be allowed to do.
 */
export function InternalMemberForm({
  teamId,
  onCancel,
  onCreated,
}: {
  teamId: string;
  onCancel: () => void;
  onCreated: (credentials: Credentials) => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const { control, handleSubmit } = useForm<InternalForm>({
    resolver: zodResolver(internalFormSchema),
    defaultValues: { username: '', role: INTERNAL_MEMBER_ROLE },
  });
  const mutation = useCreateInternalMemberMutation(teamId);

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(
      { ...values, locale: uiLocale(i18n.language) },
      { onSuccess: ({ credentials }) => onCreated(credentials) },
    ),
  );

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 2 }}>
        <DialogContentText sx={{ mb: 2 }}>{t('members.add.internalText')}</DialogContentText>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="username"
            label={t('members.fields.username')}
            helperText={t('members.fields.usernameHelp', {
              min: USERNAME_MIN_LENGTH,
              max: USERNAME_MAX_LENGTH,
            })}
            autoComplete="off"
            maxLength={USERNAME_MAX_LENGTH}
            autoFocus
            required
          />
          <TextField
            select
            fullWidth
            disabled
            label={t('members.fields.role')}
            value={INTERNAL_MEMBER_ROLE}
            helperText={t('members.add.internalRoleHelp')}
            // The role cannot change, but why is worth reading: the help keeps the normal text
            // colour (the disabled grey is under the 4.5:1 contrast text needs).
            slotProps={{
              formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
            }}
          >
            <MenuItem value={INTERNAL_MEMBER_ROLE}>{t(`roles.${INTERNAL_MEMBER_ROLE}`)}</MenuItem>
          </TextField>
          {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={mutation.isPending}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={mutation.isPending}>
          {t('members.add.create')}
        </Button>
      </DialogActions>
    </Box>
  );
}
