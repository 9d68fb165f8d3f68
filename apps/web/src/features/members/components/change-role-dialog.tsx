import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { ROLE_CHANGE_TARGETS, type AssignableRole, type Member } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorToast, useSnackbar } from '../../../components/snackbar';
import { useUpdateMemberMutation } from '../api/update-member';

const isAssignable = (role: string): role is AssignableRole =>
  (ROLE_CHANGE_TARGETS as readonly string[]).includes(role);

/** Change role: a choice among admin, uploader and viewer (spec §4); Save once it differs. */
export function ChangeRoleDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
  const titleId = useId();
  const [role, setRole] = useState<AssignableRole | ''>(
    isAssignable(member.role) ? member.role : '',
  );
  const mutation = useUpdateMemberMutation();
  const unchanged = role === '' || role === member.role;

  const save = () => {
    if (role === '') return;
    mutation.mutate(
      { member, changes: { role } },
      {
        onSuccess: (saved) => {
          show(
            t('members.done.changeRole', {
              name: saved.nickname,
              role: t(`roles.${saved.role}`),
            }),
            'success',
          );
          onClose();
        },
        onError: showError,
      },
    );
  };

  return (
    <Dialog
      open
      onClose={mutation.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>
        {t('members.changeRole.title', { name: member.nickname })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('members.changeRole.text')}</DialogContentText>
        <TextField
          select
          fullWidth
          label={t('members.fields.role')}
          value={role}
          onChange={(event) => {
            if (isAssignable(event.target.value)) setRole(event.target.value);
          }}
          helperText={role === '' ? undefined : t(`members.roleDescriptions.${role}`)}
        >
          {ROLE_CHANGE_TARGETS.map((target) => (
            <MenuItem key={target} value={target}>
              {t(`roles.${target}`)}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={mutation.isPending}>
          {t('actions.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={unchanged}
          loading={mutation.isPending}
        >
          {t('actions.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
