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
  canChangeCollectionMode,
  COLLECTION_MODES,
  COLLECTION_NAME_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  memberRefSchema,
  updateCollectionFormSchema,
  type Collection,
  type MemberRole,
} from '@raccolta/contracts';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { useErrorText } from '../../../lib/error-text';
import { useUpdateCollectionMutation } from '../api/update-collection';
import { collectionPatch } from '../utils/collection-patch';
import { CollectionModeField } from './collection-mode-field';
import { MemberTagsField } from './member-tags-field';

const editCollectionFormSchema = updateCollectionFormSchema.extend({
  tags: z.array(memberRefSchema),
  mode: z.enum(COLLECTION_MODES),
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
  const errorText = useErrorText();
  const titleId = useId();
  const { control, handleSubmit } = useForm<EditCollectionFormInput, unknown, EditCollectionForm>({
    resolver: zodResolver(editCollectionFormSchema),
    defaultValues: {
      name: collection.name,
      description: collection.description ?? '',
      tags: collection.taggedMembers,
      mode: collection.mode,
    },
  });
  const switchesMode = canChangeCollectionMode(actor.role);
  const [name, description, tags, mode] = useWatch({
    control,
    name: ['name', 'description', 'tags', 'mode'],
  });
  const unchanged =
    collectionPatch(collection, {
      name: name.trim(),
      description: description?.trim() || undefined,
      tags: tags.map((tag) => tag.userId),
      mode: switchesMode ? mode : undefined,
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
    <Dialog
      open
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick' && !mutation.isPending) onClose();
      }}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogTitle id={titleId}>{t('collections.edit.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
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
            disabled={unchanged}
            loading={mutation.isPending}
          >
            {t('actions.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
