import type { Credentials, Member } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useErrorToast, useSnackbar } from '../../../components/snackbar';
import { useRemoveMemberMutation } from '../api/remove-member';
import { useResetMemberPasswordMutation } from '../api/reset-member-password';
import { useUpdateMemberMutation } from '../api/update-member';
import { AddMemberDialog } from './add-member-dialog';
import { ChangeRoleDialog } from './change-role-dialog';
import { CredentialsDialog } from './credentials-dialog';
import { MemberInfoDialog } from './member-info-dialog';
import { RenameMemberDialog } from './rename-member-dialog';

/** The dialog the members panel shows, if any. */
export type MemberDialog =
  | {
      kind: 'info' | 'changeRole' | 'rename' | 'disable' | 'remove' | 'resetPassword';
      member: Member;
    }
  | { kind: 'add' }
  | { kind: 'credentials'; credentials: Credentials };

function RemoveMemberDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
  const mutation = useRemoveMemberMutation();
  return (
    <ConfirmDialog
      open
      title={t('members.remove.title', { name: member.nickname })}
      confirmLabel={t('members.actions.remove')}
      destructive
      pending={mutation.isPending}
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(member, {
          onSuccess: () => {
            show(t('members.done.remove', { name: member.nickname }), 'success');
            onClose();
          },
          onError: showError,
        })
      }
    >
      {member.type === 'internal'
        ? t('members.remove.internalText', { name: member.nickname })
        : t('members.remove.text', { name: member.nickname })}
    </ConfirmDialog>
  );
}

function DisableMemberDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
  const mutation = useUpdateMemberMutation();
  return (
    <ConfirmDialog
      open
      title={t('members.disable.title', { name: member.nickname })}
      confirmLabel={t('members.actions.disable')}
      destructive
      pending={mutation.isPending}
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(
          { member, changes: { status: 'disabled' } },
          {
            onSuccess: (saved) => {
              show(t('members.done.disable', { name: saved.nickname }), 'success');
              onClose();
            },
            onError: showError,
          },
        )
      }
    >
      {t('members.disable.text', { name: member.nickname })}
    </ConfirmDialog>
  );
}

function ResetPasswordDialog({
  member,
  onClose,
  onCredentials,
}: {
  member: Member;
  onClose: () => void;
  onCredentials: (credentials: Credentials) => void;
}) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const mutation = useResetMemberPasswordMutation();
  return (
    <ConfirmDialog
      open
      title={t('members.resetPassword.title', { name: member.nickname })}
      confirmLabel={t('members.resetPassword.confirm')}
      pending={mutation.isPending}
      onClose={onClose}
      onConfirm={() => mutation.mutate(member, { onSuccess: onCredentials, onError: showError })}
    >
      {t('members.resetPassword.text', { name: member.nickname })}
    </ConfirmDialog>
  );
}

export function MemberDialogs({
  dialog,
  teamId,
  now,
  onClose,
  onCredentials,
}: {
  dialog: MemberDialog | null;
  teamId: string;
  now: number;
  onClose: () => void;
  onCredentials: (credentials: Credentials) => void;
}) {
  if (dialog === null) return null;
  switch (dialog.kind) {
    case 'add':
      return <AddMemberDialog teamId={teamId} onClose={onClose} onCredentials={onCredentials} />;
    case 'credentials':
      return <CredentialsDialog credentials={dialog.credentials} onClose={onClose} />;
    case 'info':
      return <MemberInfoDialog member={dialog.member} now={now} onClose={onClose} />;
    case 'changeRole':
      return <ChangeRoleDialog member={dialog.member} onClose={onClose} />;
    case 'rename':
      return <RenameMemberDialog member={dialog.member} onClose={onClose} />;
    case 'disable':
      return <DisableMemberDialog member={dialog.member} onClose={onClose} />;
    case 'remove':
      return <RemoveMemberDialog member={dialog.member} onClose={onClose} />;
    case 'resetPassword':
      return (
        <ResetPasswordDialog
          member={dialog.member}
          onClose={onClose}
          onCredentials={onCredentials}
        />
      );
  }
}
