import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { Credentials } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InternalMemberForm } from './internal-member-form';
import { InviteMemberForm } from './invite-member-form';

type AddMode = 'invite' | 'internal';

/** Add member (spec §2): invite by e-mail, or create an internal contributor. */
export function AddMemberDialog({
  teamId,
  onClose,
  onCredentials,
}: {
  teamId: string;
  onClose: () => void;
  onCredentials: (credentials: Credentials) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const tabsId = useId();
  const [mode, setMode] = useState<AddMode>('invite');

  return (
    // Closing by a click outside would throw away what was typed; Cancel and Escape still close.
    <Dialog
      open
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId} sx={{ pb: 0 }}>
        {t('members.add.title')}
      </DialogTitle>
      <Tabs
        value={mode}
        onChange={(_event, value: AddMode) => setMode(value)}
        variant="fullWidth"
        sx={{ px: { xs: 1, sm: 2 }, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab
          value="invite"
          label={t('members.add.inviteTab')}
          id={`${tabsId}-invite`}
          aria-controls={`${tabsId}-invite-panel`}
        />
        <Tab
          value="internal"
          label={t('members.add.internalTab')}
          id={`${tabsId}-internal`}
          aria-controls={`${tabsId}-internal-panel`}
        />
      </Tabs>
      <div role="tabpanel" id={`${tabsId}-${mode}-panel`} aria-labelledby={`${tabsId}-${mode}`}>
        {mode === 'invite' ? (
          <InviteMemberForm teamId={teamId} onDone={onClose} />
        ) : (
          <InternalMemberForm teamId={teamId} onCancel={onClose} onCreated={onCredentials} />
        )}
      </div>
    </Dialog>
  );
}
