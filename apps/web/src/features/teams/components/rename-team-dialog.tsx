import { zodResolver } from '@hookform/resolvers/zod';
import {
  renameTeamFormSchema,
  TEAM_NAME_MAX_LENGTH,
  type RenameTeamForm,
  type Team,
} from '@raccolta/contracts';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form/form-dialog';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { useUpdateTeamMutation } from '../api/update-team';

/** Rename team; Save is disabled while the trimmed name equals the current one or saving (§4). */
export function RenameTeamDialog({ team, onClose }: { team: Team; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
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
    <FormDialog
      title={t('team.rename.title')}
      onSubmit={onSubmit}
      onClose={onClose}
      pending={mutation.isPending}
      error={mutation.error}
      submitDisabled={name.trim() === team.name}
      maxWidth="xs"
      closeOnBackdropClick
    >
      <FormTextField
        control={control}
        name="name"
        label={t('teams.fields.name')}
        maxLength={TEAM_NAME_MAX_LENGTH}
        autoFocus
        required
      />
    </FormDialog>
  );
}
