import { zodResolver } from '@hookform/resolvers/zod';
import {
  NICKNAME_MAX_LENGTH,
  renameMemberFormSchema,
  type Member,
  type RenameMemberForm,
} from '@raccolta/contracts';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form/form-dialog';
import { FormTextField } from '../../../components/form/form-text-field';
import { withoutLeadingSpaces } from '../../../components/form/transforms';
import { useErrorToast, useSnackbar } from '../../../components/snackbar';
import { useUpdateMemberMutation } from '../api/update-member';

/** Rename a member; Save is disabled while the trimmed name is the current one (spec §5). */
export function RenameMemberDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
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
    <FormDialog
      title={t('members.rename.title', { name: member.nickname })}
      onSubmit={onSubmit}
      onClose={onClose}
      pending={mutation.isPending}
      submitDisabled={unchanged}
      maxWidth="xs"
      closeOnBackdropClick
    >
      <FormTextField
        control={control}
        name="nickname"
        label={t('members.fields.nickname')}
        maxLength={NICKNAME_MAX_LENGTH}
        transform={withoutLeadingSpaces}
        autoFocus
        required
      />
    </FormDialog>
  );
}
