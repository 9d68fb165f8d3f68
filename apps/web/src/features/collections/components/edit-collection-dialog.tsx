import { zodResolver } from '@hookform/resolvers/zod';
import {
  canChangeCollectionMode,
  COLLECTION_MODES,
  COLLECTION_NAME_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  localDateTimeSchema,
  memberRefSchema,
  timeZoneSchema,
  updateCollectionFormSchema,
  type Collection,
  type MemberRole,
} from '@raccolta/contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '../../../components/form/form-dialog';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { useUpdateCollectionMutation } from '../api/update-collection';
import { collectionPatch } from '../utils/collection-patch';
import { CollectionModeField } from './collection-mode-field';
import { MemberTagsField } from './member-tags-field';
import { DeadlineField } from './deadline-field';
import { browserTimeZone } from '../api/create-collection';
import { validationText } from '../../../lib/validation-text';

const editCollectionFormSchema = updateCollectionFormSchema.extend({
  tags: z.array(memberRefSchema),
  mode: z.enum(COLLECTION_MODES),
  deadline: z.object({
    local: z.union([z.literal(''), localDateTimeSchema]),
    timeZone: timeZoneSchema,
    allowLateUploads: z.boolean(),
  }),
});
type EditCollectionFormInput = z.input<typeof editCollectionFormSchema>;
type EditCollectionForm = z.output<typeof editCollectionFormSchema>;

/**
 * Edit a collection's name, description, tagged members and, for owners and admins, whether it
 * is shared with the contributors or private; only what changed is sent, and Save waits for a
 * change. Server errors (a tag no longer a member: invalidTeamMember) stay inside.
 */
export function EditCollectionDialog({
  collection,
  actor,
  onClose,
}: {
  collection: Collection;
  /** Who edits: the mode choice is offered to owners and admins only. */
  actor: { role: MemberRole; userId: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const { control, handleSubmit } = useForm<EditCollectionFormInput, unknown, EditCollectionForm>({
    resolver: zodResolver(editCollectionFormSchema),
    defaultValues: {
      name: collection.name,
      description: collection.description ?? '',
      tags: collection.taggedMembers,
      mode: collection.mode,
      deadline: {
        local: collection.deadline?.local ?? '',
        timeZone: collection.deadline?.timeZone ?? browserTimeZone(),
        allowLateUploads: collection.allowLateUploads,
      },
    },
  });
  const switchesMode = canChangeCollectionMode(actor.role);
  const [name, description, tags, mode, deadline] = useWatch({
    control,
    name: ['name', 'description', 'tags', 'mode', 'deadline'],
  });
  const unchanged =
    collectionPatch(collection, {
      name: name.trim(),
      description: description?.trim() || undefined,
      tags: tags.map((tag) => tag.userId),
      mode: switchesMode ? mode : undefined,
      deadline,
    }).length === 0;
  const mutation = useUpdateCollectionMutation();

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(
      {
        collection,
        changes: {
          name: values.name,
          description: values.description,
          tags: values.tags.map((tag) => tag.userId),
          mode: switchesMode ? values.mode : undefined,
          deadline: values.deadline,
        },
      },
      {
        onSuccess: (saved) => {
          show(t('collections.edit.success', { name: saved.name }), 'success');
          onClose();
        },
      },
    ),
  );

  return (
    <FormDialog
      title={t('collections.edit.title')}
      onSubmit={onSubmit}
      onClose={onClose}
      pending={mutation.isPending}
      error={mutation.error}
      submitDisabled={unchanged}
    >
      <FormTextField
        control={control}
        name="name"
        label={t('collections.fields.name')}
        maxLength={COLLECTION_NAME_MAX_LENGTH}
        autoComplete="off"
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
        name="tags"
        render={({ field }) => (
          <MemberTagsField
            teamId={collection.teamId}
            value={field.value}
            onChange={field.onChange}
            disabled={mutation.isPending}
          />
        )}
      />
      {switchesMode && (
        <Controller
          control={control}
          name="mode"
          render={({ field }) => (
            <CollectionModeField
              value={field.value}
              onChange={field.onChange}
              chooses
              disabled={mutation.isPending}
              creatorName={
                collection.createdBy === actor.userId
                  ? undefined
                  : (collection.owner.nickname ?? t('collections.formerMember'))
              }
            />
          )}
        />
      )}
      <Controller
        control={control}
        name="deadline"
        render={({ field, fieldState }) => (
          <DeadlineField
            value={field.value}
            onChange={field.onChange}
            disabled={mutation.isPending}
            error={
              fieldState.error
                ? validationText(t, fieldState.error.message ?? 'invalidDeadline')
                : undefined
            }
          />
        )}
      />
    </FormDialog>
  );
}
