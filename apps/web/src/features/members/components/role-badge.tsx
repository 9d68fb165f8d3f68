import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { MemberRole } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';

/** The role's label (uploader reads Contributor) with a tooltip saying what the role may do. */
export function RoleBadge({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  return (
    // describeChild: the description is extra information, the chip's name stays the role.
    <Tooltip title={t(`members.roleDescriptions.${role}`)} describeChild enterTouchDelay={300}>
      <Chip
        size="small"
        variant="outlined"
        color={role === 'owner' ? 'primary' : 'default'}
        label={t(`roles.${role}`)}
      />
    </Tooltip>
  );
}
