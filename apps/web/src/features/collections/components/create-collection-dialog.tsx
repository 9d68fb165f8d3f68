import { zodResolver } from '@hookform/resolvers/zod';
import {
  canChooseCollaborative,
  COLLECTION_NAME_MAX_LENGTH,
  createCollectionFormSchema,
  DESCRIPTION_MAX_LENGTH,
  type Collection,
  type CreateCollectionForm,
  type MemberRole,
} from '@raccolta/contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormDialog } from '../../../components/form/form-dialog';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { browserTimeZone, useCreateCollectionMutation } from '../api/create-collection';
import { validationText } from '../../../lib/validation-text';
import { DeadlineField } from './deadline-field';
import { CollectionModeField } from './collection-mode-field';

type CreateCollectionFormInput = z.input<typeof createCollectionFormSchema>;

/**
 * New collection (spec §2, §5): name, description and who sees it (the spec's collaborative
 * checkbox, worded as a choice of two; docs/decisions.md). Owners and admins start on shared, so
 * the collection they make is one contributors can upload into unless they choose otherwise;
 * contributors cannot choose (§6) and create private collections. Server errors stay in the
 * dialog beside the input.
 */
export function CreateCollectionDialog({
  teamId,
  role,
  onClose,
  onCreated,
}: {
  teamId: string;
  role: MemberRole;
  onClose: () => void;
  /** After the success toast, instead of only closing (the upload app opens the new collection). */
  onCreated?: (collection: Collection) => void;
}) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const chooses = canChooseCollaborative(role);
  const { control, handleSubmit, setValue } = useForm<
    CreateCollectionFormInput,
    unknown,
    CreateCollectionForm
  >({
    resolver: zodResolver(createCollectionFormSchema),
    defaultValues: {
      name: '',
      description: '',
      isCollaborative: chooses,
      deadlineLocal: '',
      deadlineZone: browserTimeZone(),
      allowLateUploads: false,
    },
  });
  // The zone and the late switch live beside the date field: shown as they change.
  const [deadlineZone, allowLateUploads] = useWatch({
    control,
    name: ['deadlineZone', 'allowLateUploads'],
  });
  const mutation = useCreateCollectionMutation(teamId);
  const onSubmit = handleSubmit((values) =>
    mutation.mutate(values, {
      onSuccess: (collection) => {
        show(t('collections.create.success', { name: collection.name }), 'success');
        onClose();
        onCreated?.(collection);
      },
    }),
  );

  return (
    <FormDialog
      title={t('collections.create.title')}
      onSubmit={onSubmit}
      onClose={onClose}
      pending={mutation.isPending}
      error={mutation.error}
      submitLabel={t('actions.create')}
    >
      <FormTextField
        control={control}
        name="name"
        label={t('collections.fields.name')}
        maxLength={COLLECTION_NAME_MAX_LENGTH}
        autoComplete="off"
        autoFocus
        required
      />
      <FormTextField
        control={control}
        name="description"
        label={t('collections.fields.description')}
        maxLength={DESCRIPTION_MAX_LENGTH}
        multiline
        minRows={2}
      />
      <Controller
        control={control}
        name="isCollaborative"
        render={({ field }) => (
          <CollectionModeField
            value={field.value ? 'collaborative' : 'owned'}
            onChange={(mode) => field.onChange(mode === 'collaborative')}
            chooses={chooses}
            disabled={mutation.isPending}
          />
        )}
      />
      <Controller
        control={control}
        name="deadlineLocal"
        render={({ field, fieldState }) => (
          <DeadlineField
            value={{
              local: field.value ?? '',
              timeZone: deadlineZone ?? browserTimeZone(),
              allowLateUploads: allowLateUploads ?? false,
            }}
            onChange={(next) => {
              setValue('deadlineZone', next.timeZone);
              setValue('allowLateUploads', next.allowLateUploads);
              field.onChange(next.local);
            }}
            disabled={mutation.isPending}
            error={fieldState.error ? validationText(t, fieldState.error.message) : undefined}
          />
        )}
      />
    </FormDialog>
  );
}
