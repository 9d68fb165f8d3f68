import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Member } from '@raccolta/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailList, DetailRow } from '../../../components/detail-list';
import { UserAvatar } from '../../../components/user-avatar';
import { formatDate } from '../../../lib/format-date';
import { useMemberQuery } from '../../../lib/members/get-member';
import { MemberStatusChip } from './member-status-chip';
import { RoleBadge } from './role-badge';

/** Member details: the list's row at once, then the member as the server has it now. */
export function MemberInfoDialog({
  member,
  now,
  onClose,
}: {
  member: Member;
  now: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { data = member } = useMemberQuery(member.teamId, member.userId, member);
  const date = (value: string | number) => formatDate(value, i18n.language, true);

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('members.info.title')}</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2.5, minWidth: 0 }}>
          <UserAvatar name={data.nickname} src={data.avatarUrl} size={48} />
          <Typography variant="h6" component="p" noWrap>
            {data.nickname}
          </Typography>
        </Stack>
        <DetailList>
          <DetailRow label={t('members.info.role')}>
            <RoleBadge role={data.role} />
          </DetailRow>
          <DetailRow label={t('members.info.status')}>
            <MemberStatusChip member={data} now={now} />
          </DetailRow>
          <DetailRow label={t('members.info.type')}>{t(`members.types.${data.type}`)}</DetailRow>
          {data.email !== null && (
            <DetailRow label={t('members.info.email')}>{data.email}</DetailRow>
          )}
          {data.username !== null && (
            <DetailRow label={t('members.info.username')}>{data.username}</DetailRow>
          )}
          <DetailRow label={t('members.info.createdAt')}>{date(data.createdAt)}</DetailRow>
          <DetailRow label={t('members.info.joinedAt')}>
            {data.joinedAt === null ? t('members.info.notJoined') : date(data.joinedAt)}
          </DetailRow>
          {data.inviteExpiresAt !== null && (
            <DetailRow label={t('members.info.inviteExpiresAt')}>
              {date(data.inviteExpiresAt)}
            </DetailRow>
          )}
        </DetailList>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
