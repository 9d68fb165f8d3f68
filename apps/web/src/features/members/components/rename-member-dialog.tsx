import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import {
  NICKNAME_MAX_LENGTH,
  renameMemberFormSchema,
  type Member,
  type RenameMemberForm,
} from '@raccolta/contracts';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form/form-text-field';
import { withoutLeadingSpaces } from '../../../components/form/transforms';
import { useErrorToast, useSnackbar } from '../../../components/snackbar';
import { useUpdateMemberMutation } from '../api/update-member';

/** Rename a member; Save is disabled while the trimmed name is the current one (spec §5). */
export function RenameMemberDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
  const titleId = useId();
  const { control, handleSubmit } = useForm<RenameMemberForm>({
    resolver: zodResolver(renameMemberFormSchema),
    defaultValues: { nickname: member.nickname },
  });
  const nickname = useWatch({ control, name: 'nickname' });
  const mutation = useUpdateMemberMutation();
  const unchanged = nickname.trim() === member.nickname;

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(
      { member, changes: { nickname: values.nickname } },
      {
        onSuccess: (saved) => {
          show(t('members.done.rename', { name: saved.nickname }), 'success');
          onClose();
        },
        onError: showError,
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
        <DialogTitle id={titleId}>
          {t('members.rename.title', { name: member.nickname })}
        </DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <FormTextField
              control={control}
              name="nickname"
              label={t('members.fields.nickname')}
              maxLength={NICKNAME_MAX_LENGTH}
              transform={withoutLeadingSpaces}
              autoFocus
              required
            />
          </Box>
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
