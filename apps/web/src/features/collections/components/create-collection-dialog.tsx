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
  canChooseCollaborative,
  COLLECTION_NAME_MAX_LENGTH,
  createCollectionFormSchema,
  DESCRIPTION_MAX_LENGTH,
  type Collection,
  type CreateCollectionForm,
  type MemberRole,
} from '@raccolta/contracts';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { useErrorText } from '../../../lib/error-text';
import { useCreateCollectionMutation } from '../api/create-collection';
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
  const errorText = useErrorText();
  const titleId = useId();
  const chooses = canChooseCollaborative(role);
  const { control, handleSubmit } = useForm<
    CreateCollectionFormInput,
    unknown,
    CreateCollectionForm
  >({
    resolver: zodResolver(createCollectionFormSchema),
    defaultValues: { name: '', description: '', isCollaborative: chooses },
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
    <Dialog
      open
      // A click beside the dialog must not throw away what was typed.
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick' && !mutation.isPending) onClose();
      }}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogTitle id={titleId}>{t('collections.create.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
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
            {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={mutation.isPending}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {t('actions.create')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
