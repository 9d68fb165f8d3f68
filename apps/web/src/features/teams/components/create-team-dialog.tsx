import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import {
  createTeamFormSchema,
  DESCRIPTION_MAX_LENGTH,
  NICKNAME_MAX_LENGTH,
  TEAM_NAME_MAX_LENGTH,
  type CreateTeamForm,
} from '@raccolta/contracts';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormDialog } from '../../../components/form/form-dialog';
import { FormTextField } from '../../../components/form/form-text-field';
import { withoutLeadingSpaces } from '../../../components/form/transforms';
import { useCreateTeamMutation } from '../api/create-team';

type CreateTeamFormInput = z.input<typeof createTeamFormSchema>;

/** The create-team dialog (spec §5 fields); answers the new team's id to open it. */
export function CreateTeamDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (teamId: string) => void;
}) {
  const { t } = useTranslation();
  const helpId = useId();
  const { control, handleSubmit } = useForm<CreateTeamFormInput, unknown, CreateTeamForm>({
    resolver: zodResolver(createTeamFormSchema),
    defaultValues: {
      name: '',
      description: '',
      nickname: '',
      // Spec §4: the checkbox starts checked, DEFAULT_TEAM_MODE being collaborative.
      isCollaborative: true,
    },
  });
  const mutation = useCreateTeamMutation();
  const onSubmit = handleSubmit((values) =>
    mutation.mutate(values, { onSuccess: ({ teamId }) => onCreated(teamId) }),
  );

  return (
    <FormDialog
      title={t('teams.create.title')}
      onSubmit={onSubmit}
      onClose={onClose}
      pending={mutation.isPending}
      error={mutation.error}
      submitLabel={t('actions.create')}
    >
      <FormTextField
        control={control}
        name="name"
        label={t('teams.fields.name')}
        maxLength={TEAM_NAME_MAX_LENGTH}
        autoComplete="off"
        autoFocus
        required
      />
      <FormTextField
        control={control}
        name="description"
        label={t('teams.fields.description')}
        maxLength={DESCRIPTION_MAX_LENGTH}
        multiline
        minRows={2}
      />
      <FormTextField
        control={control}
        name="nickname"
        label={t('teams.fields.nickname')}
        helperText={t('teams.fields.nicknameHelp')}
        maxLength={NICKNAME_MAX_LENGTH}
        transform={withoutLeadingSpaces}
        autoComplete="nickname"
      />
      <Box>
        <Controller
          control={control}
          name="isCollaborative"
          render={({ field }) => (
            <FormControlLabel
              label={t('teams.fields.collaborative')}
              control={
                <Checkbox
                  name={field.name}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  onBlur={field.onBlur}
                  slotProps={{ input: { ref: field.ref, 'aria-describedby': helpId } }}
                />
              }
            />
          )}
        />
        <FormHelperText id={helpId} sx={{ mt: 0, ml: 4 }}>
          {t('teams.fields.collaborativeHelp')}
        </FormHelperText>
      </Box>
    </FormDialog>
  );
}
