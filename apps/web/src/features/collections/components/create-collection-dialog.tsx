import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
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
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { useErrorText } from '../../../lib/error-text';
import { useCreateCollectionMutation } from '../api/create-collection';

type CreateCollectionFormInput = z.input<typeof createCollectionFormSchema>;

function modeHelpKey(chooses: boolean, collaborative: boolean) {
  if (!chooses) return 'collections.fields.uploaderModeHelp' as const;
  return collaborative
    ? ('collections.fields.collaborativeHelp' as const)
    : ('collections.fields.ownedHelp' as const);
}

/**
 * New collection (spec §2, §5): name, description and the collaborative checkbox, unchecked at
 * first and disabled for contributors (§6). Server errors stay in the dialog beside the input.
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
  const helpId = useId();
  const chooses = canChooseCollaborative(role);
  const { control, handleSubmit } = useForm<
    CreateCollectionFormInput,
    unknown,
    CreateCollectionForm
  >({
    resolver: zodResolver(createCollectionFormSchema),
    defaultValues: { name: '', description: '', isCollaborative: false },
  });
  const collaborative = useWatch({ control, name: 'isCollaborative' });
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
            <Box>
              <Controller
                control={control}
                name="isCollaborative"
                render={({ field }) => (
                  <FormControlLabel
                    label={t('collections.fields.collaborative')}
                    disabled={!chooses}
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
                {t(modeHelpKey(chooses, collaborative))}
              </FormHelperText>
            </Box>
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
