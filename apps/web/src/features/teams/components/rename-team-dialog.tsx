import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import {
  renameTeamFormSchema,
  TEAM_NAME_MAX_LENGTH,
  type RenameTeamForm,
  type Team,
} from '@raccolta/contracts';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { useErrorText } from '../../../lib/error-text';
import { useUpdateTeamMutation } from '../api/update-team';

/** Rename team; Save is disabled while the trimmed name equals the current one or saving (§4). */
export function RenameTeamDialog({ team, onClose }: { team: Team; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const errorText = useErrorText();
  const titleId = useId();
  const { control, handleSubmit } = useForm<RenameTeamForm>({
    resolver: zodResolver(renameTeamFormSchema),
    defaultValues: { name: team.name },
  });
  const name = useWatch({ control, name: 'name' });
  const mutation = useUpdateTeamMutation();

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(
      { original: team, updated: { ...team, name: values.name } },
      {
        onSuccess: (saved) => {
          show(t('team.rename.success', { name: saved.name }), 'success');
          onClose();
        },
      },
    ),
  );

  return (
    <Dialog
      open
      onClose={mutation.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogTitle id={titleId}>{t('team.rename.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField
              control={control}
              name="name"
              label={t('teams.fields.name')}
              maxLength={TEAM_NAME_MAX_LENGTH}
              autoFocus
              required
            />
            {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={mutation.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={name.trim() === team.name}
            loading={mutation.isPending}
          >
            {t('actions.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
