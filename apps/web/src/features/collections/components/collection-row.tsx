import FolderOutlined from '@mui/icons-material/FolderOutlined';
import FolderSharedOutlined from '@mui/icons-material/FolderSharedOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { TAGS_SHOWN_MAX, type Collection, type MemberRef } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { UserAvatar } from '../../../components/user-avatar';
import { formatDate } from '../../../lib/format-date';
import { isUnread } from '../utils/unread';
import { DueChip } from '../../../components/due-chip';
import { CollectionMenu, type CollectionAction } from './collection-menu';

/** Controls inside the row sit above the link that covers it. */
const ABOVE_LINK = { position: 'relative', zIndex: 1 } as const;

const SEPARATOR = (
  <Box component="span" aria-hidden sx={{ color: 'text.disabled' }}>
    ·
  </Box>
);

export interface CollectionRowProps {
  collection: Collection;
  /** The files screen of the collection. */
  href: string;
  actions: readonly CollectionAction[];
  /** The tagged-user filter, to mark its chip. */
  taggedFilter: string | undefined;
  divider: boolean;
  onCreator: (userId: string) => void;
  onTag: (userId: string) => void;
  onAction: (action: CollectionAction, collection: Collection) => void;
}

/**
 * One collection. The name is a link stretched over the whole row, so a click anywhere (or Enter
 * on the name) opens it, and a middle click opens a tab; the owner, the tags and the menu are
 * buttons above it that filter or act instead.
 */
export function CollectionRow({
  collection,
  href,
  actions,
  taggedFilter,
  divider,
  onCreator,
  onTag,
  onAction,
}: CollectionRowProps) {
  const { t, i18n } = useTranslation();
  const unread = isUnread(collection);
  const shared = collection.mode === 'collaborative';
  const nameOf = (ref: MemberRef) => ref.nickname ?? t('collections.formerMember');
  const owner = nameOf(collection.owner);
  const tags = collection.taggedMembers.slice(0, TAGS_SHOWN_MAX);
  const moreTags = collection.taggedMembers.slice(TAGS_SHOWN_MAX);
  const FolderIcon = shared ? FolderSharedOutlined : FolderOutlined;
  const updated = formatDate(collection.updatedAt, i18n.language);

  return (
    <ListItem
      divider={divider}
      sx={{
        alignItems: 'flex-start',
        gap: 1.5,
        px: { xs: 1.5, sm: 2 },
        py: 1.25,
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <FolderIcon
        sx={{ display: { xs: 'none', sm: 'block' }, color: 'text.secondary', mt: 0.25 }}
      />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, minWidth: 0 }}>
          {unread && (
            <Tooltip title={t('collections.row.unread')}>
              <Box
                role="img"
                aria-label={t('collections.row.unread')}
                sx={{
                  ...ABOVE_LINK,
                  width: 8,
                  height: 8,
                  borderRadius: '50%',
                  bgcolor: 'primary.main',
                  flexShrink: 0,
                }}
              />
            </Tooltip>
          )}
          <Link
            component={RouterLink}
            to={href}
            color="inherit"
            underline="hover"
            noWrap
            title={collection.name}
            sx={{
              display: 'block',
              minWidth: 0,
              fontWeight: unread ? 700 : 500,
              '&::after': { content: '""', position: 'absolute', inset: 0 },
              '&:focus-visible': { outline: 'none' },
              '&:focus-visible::after': {
                outline: 2,
                outlineColor: 'primary.main',
                outlineOffset: -2,
              },
            }}
          >
            {collection.name}
          </Link>
          <Tooltip title={t(shared ? 'collections.row.sharedHint' : 'collections.row.privateHint')}>
            <Chip
              size="small"
              variant="outlined"
              color={shared ? 'primary' : 'default'}
              label={t(shared ? 'collections.row.shared' : 'collections.row.private')}
              sx={{ ...ABOVE_LINK, flexShrink: 0, height: 20, fontSize: '0.75rem' }}
            />
          </Tooltip>
          <DueChip collection={collection} sx={ABOVE_LINK} />
        </Stack>
        <Stack
          direction="row"
          sx={{
            alignItems: 'center',
            flexWrap: 'wrap',
            columnGap: 1,
            rowGap: 0.25,
            mt: 0.5,
            minWidth: 0,
            color: 'text.secondary',
          }}
        >
          <ButtonBase
            onClick={() => onCreator(collection.owner.userId)}
            aria-label={t('collections.row.filterByOwner', { name: owner })}
            sx={{
              ...ABOVE_LINK,
              gap: 0.75,
              maxWidth: '100%',
              borderRadius: 1,
              justifyContent: 'flex-start',
              '&:hover .owner-name': { textDecoration: 'underline' },
              '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main' },
            }}
          >
            <UserAvatar name={owner} src={collection.owner.avatarUrl} size={20} />
            <Typography className="owner-name" variant="body2" noWrap>
              {owner}
            </Typography>
          </ButtonBase>
          {SEPARATOR}
          <Typography
            variant="body2"
            component="time"
            dateTime={collection.updatedAt}
            title={t('collections.row.updated', { date: updated })}
          >
            {updated}
          </Typography>
          {SEPARATOR}
          <Typography variant="body2" component="span">
            {t('collections.row.files', { count: collection.filesCount })}
          </Typography>
        </Stack>
        {tags.length > 0 && (
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.75 }}>
            {tags.map((tag) => {
              const name = nameOf(tag);
              const active = tag.userId === taggedFilter;
              return (
                <Chip
                  key={tag.userId}
                  size="small"
                  variant={active ? 'filled' : 'outlined'}
                  color={active ? 'primary' : 'default'}
                  label={name}
                  aria-label={t('collections.row.filterByTag', { name })}
                  onClick={() => onTag(tag.userId)}
                  sx={{ ...ABOVE_LINK, maxWidth: 160 }}
                />
              );
            })}
            {moreTags.length > 0 && (
              <Tooltip title={moreTags.map(nameOf).join(', ')}>
                <Chip
                  size="small"
                  label={`+${moreTags.length}`}
                  aria-label={t('collections.row.moreTags', { count: moreTags.length })}
                  sx={ABOVE_LINK}
                />
              </Tooltip>
            )}
          </Stack>
        )}
      </Box>
      <Box sx={{ ...ABOVE_LINK, flexShrink: 0, alignSelf: 'center' }}>
        <CollectionMenu collection={collection} actions={actions} onAction={onAction} />
      </Box>
    </ListItem>
  );
}
