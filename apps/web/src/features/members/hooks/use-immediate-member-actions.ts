import type { Member } from '@raccolta/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorToast, useSnackbar } from '../../../components/snackbar';
import { useResendInvitationMutation } from '../api/resend-invitation';
import { useUpdateMemberMutation } from '../api/update-member';
import type { MemberAction } from '../utils/member-actions';

/**
 * The member actions that need no dialog: resend an invitation and reactivate (both harmless).
 * Returns whether it took the action; the others (disable included) open a dialog.
 */
export function useImmediateMemberActions(): (action: MemberAction, member: Member) => boolean {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
  const resend = useResendInvitationMutation();
  const update = useUpdateMemberMutation();
  const { mutate: resendInvitation } = resend;
  const { mutate: updateMember } = update;

  return useCallback(
    (action: MemberAction, member: Member) => {
      switch (action) {
        case 'resendInvitation':
          resendInvitation(member, {
            onSuccess: (saved) =>
              show(
                t('members.done.resendInvitation', { email: saved.email ?? saved.nickname }),
                'success',
              ),
            onError: showError,
          });
          return true;
        case 'reactivate':
          updateMember(
            { member, changes: { status: 'active' } },
            {
              onSuccess: (saved) =>
                show(t('members.done.reactivate', { name: saved.nickname }), 'success'),
              onError: showError,
            },
          );
          return true;
        default:
          return false;
      }
    },
    [resendInvitation, updateMember, show, showError, t],
  );
}
