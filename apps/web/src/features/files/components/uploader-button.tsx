import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Avatar from '@mui/material/Avatar';
import ButtonBase from '@mui/material/ButtonBase';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Stack from '@mui/material/Stack';
import type { FileItem, MemberRef } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';

export interface UploaderButtonProps {
  uploader: MemberRef;
  avatarSize: number;
  onSelect: (userId: string) => void;
  /** Sent by a guest through an upload link: shown as "Guest: Anna", not as the link's maker. */
  guest?: FileItem['guest'];
  /** A click on a guest narrows the list to that guest's files through that link. */
  onSelectGuest?: (guest: GuestRef) => void;
}

export type GuestRef = NonNullable<FileItem['guest']>;

const buttonSx = {
  gap: 1,
  maxWidth: '100%',
  minWidth: 0,
  borderRadius: 1,
  py: 0.25,
  justifyContent: 'flex-start',
  '&:hover .uploader-name, &.Mui-focusVisible .uploader-name': {
    textDecoration: 'underline',
  },
  '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
} as const;

/** Who uploaded a file; a click narrows the list to that member's files. */
export function UploaderButton({
  uploader,
  avatarSize,
  onSelect,
  guest,
  onSelectGuest,
}: UploaderButtonProps) {
  const { t } = useTranslation();
  if (guest) {
    const guestName =
      guest.name === null ? t('files.guestUnnamed') : t('files.guestName', { name: guest.name });
    const content = (
      <>
        <Avatar
          sx={{ width: avatarSize, height: avatarSize, bgcolor: 'action.selected' }}
          aria-hidden
        >
          <PersonOutline sx={{ fontSize: avatarSize * 0.6, color: 'text.secondary' }} />
        </Avatar>
        <Typography
          className="uploader-name"
          variant="body2"
          noWrap
          title={guest.email ?? undefined}
          sx={{ minWidth: 0 }}
        >
          {guestName}
        </Typography>
      </>
    );
    if (!onSelectGuest) {
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0, py: 0.25 }}>
          {content}
        </Stack>
      );
    }
    const label = t('files.filterByGuest', { name: guestName });
    return (
      <Tooltip title={label}>
        <ButtonBase
          aria-label={label}
          onClick={(event) => {
            event.stopPropagation();
            onSelectGuest(guest);
          }}
          sx={buttonSx}
        >
          {content}
        </ButtonBase>
      </Tooltip>
    );
  }
  const name = uploader.nickname ?? t('files.formerMember');
  const label = t('files.filterByUploader', { name });
  return (
    <Tooltip title={label}>
      <ButtonBase
        aria-label={label}
        onClick={(event) => {
          event.stopPropagation();
          onSelect(uploader.userId);
        }}
        sx={buttonSx}
      >
        {uploader.nickname === null ? (
          <Avatar
            sx={{ width: avatarSize, height: avatarSize, bgcolor: 'action.selected' }}
            aria-hidden
          >
            <PersonOffOutlined sx={{ fontSize: avatarSize * 0.6, color: 'text.secondary' }} />
          </Avatar>
        ) : (
          <UserAvatar name={name} src={uploader.avatarUrl} size={avatarSize} />
        )}
        <Typography
          className="uploader-name"
          variant="body2"
          noWrap
          color={uploader.nickname === null ? 'text.secondary' : 'text.primary'}
          // A little room on the right: an italic last letter leans past its box.
          sx={{ minWidth: 0, ...(uploader.nickname === null && { fontStyle: 'italic', pr: 0.25 }) }}
        >
          {name}
        </Typography>
      </ButtonBase>
    </Tooltip>
  );
}
