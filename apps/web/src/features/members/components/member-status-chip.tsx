import Chip from '@mui/material/Chip';
import { derivedMemberStatus, MEMBER_STATUS_COLOR, type Member } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';

/** Spec §4: the label and colour of the member's status, an expired invitation included. */
export function MemberStatusChip({
  member,
  now,
}: {
  member: Pick<Member, 'status' | 'inviteExpiresAt'>;
  now: number;
}) {
  const { t } = useTranslation();
  const status = derivedMemberStatus(member, now);
  return <Chip size="small" color={MEMBER_STATUS_COLOR[status]} label={t(`status.${status}`)} />;
}
