import PersonAddAlt1 from '@mui/icons-material/PersonAddAlt1';
import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  canAddMember,
  MEMBER_SEARCH_DEBOUNCE_MS,
  type Member,
  type MemberActionInput,
} from '@raccolta/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useNow } from '../../../lib/use-now';
import { MEMBER_PREFIX_MAX_LENGTH, useMembersQuery } from '../../../lib/members/list-members';
import { useImmediateMemberActions } from '../hooks/use-immediate-member-actions';
import type { MemberAction } from '../utils/member-actions';
import { MemberDialogs, type MemberDialog } from './member-dialogs';
import { MemberListItem } from './member-list-item';

type DialogAction = Extract<MemberDialog, { member: Member }>['kind'];
const DIALOG_ACTIONS: readonly string[] = [
  'info',
  'changeRole',
  'rename',
  'disable',
  'remove',
  'resetPassword',
] satisfies DialogAction[];
const isDialogAction = (action: MemberAction): action is DialogAction =>
  DIALOG_ACTIONS.includes(action);

export interface MembersPanelProps {
  teamId: string;
  /** The signed-in user in this team; null while their membership loads. */
  actor: MemberActionInput['actor'] | null;
  /** A button beside the title: collapse the panel, or close the drawer on a phone. */
  headerAction?: ReactNode;
  /** A click on a member: the dashboard shows the collections they created. */
  onSelectMember?: (member: Member) => void;
}

/** The team's members: nickname-prefix search, infinite list, per-member menu, add member. */
export function MembersPanel({ teamId, actor, headerAction, onSelectMember }: MembersPanelProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const prefix = useDebouncedValue(search.trim(), MEMBER_SEARCH_DEBOUNCE_MS);
  const query = useMembersQuery(teamId, prefix);
  const now = useNow();
  const [dialog, setDialog] = useState<MemberDialog | null>(null);
  const runImmediate = useImmediateMemberActions();

  const onAction = (action: MemberAction, member: Member) => {
    if (runImmediate(action, member)) return;
    if (isDialogAction(action)) setDialog({ kind: action, member });
  };

  const members = query.data?.pages.flatMap((page) => page.members) ?? [];
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', p: 2 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography variant="body2">{t('members.loading')}</Typography>
      </Stack>
    );
  } else if (query.isError && members.length === 0) {
    // Spec §8: a failed member list shows the generic error, whatever the cause.
    body = (
      <Alert
        severity="error"
        sx={{ mx: 1.5 }}
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('actions.retry')}
          </Button>
        }
      >
        {t('errors.generic')}
      </Alert>
    );
  } else if (members.length === 0) {
    body = (
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
        {prefix === '' ? t('members.empty') : t('members.noResults', { prefix })}
      </Typography>
    );
  } else {
    body = (
      <>
        <List dense disablePadding aria-label={t('members.title')}>
          {members.map((member) => (
            <MemberListItem
              key={member.userId}
              member={member}
              actor={actor}
              now={now}
              onAction={onAction}
              onSelect={onSelectMember}
            />
          ))}
        </List>
        <LoadMoreSentinel
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      </>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'center', px: 1.5, pt: 1.5, pb: 1, gap: 0.5 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
          {t('members.title')}
        </Typography>
        {actor !== null && canAddMember(actor.role) && (
          <Tooltip title={t('members.add.button')}>
            <IconButton
              color="primary"
              aria-label={t('members.add.button')}
              onClick={() => setDialog({ kind: 'add' })}
            >
              <PersonAddAlt1 />
            </IconButton>
          </Tooltip>
        )}
        {headerAction}
      </Stack>
      <Box sx={{ px: 1.5, pb: 1 }}>
        <TextField
          size="small"
          fullWidth
          type="search"
          label={t('members.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          slotProps={{
            htmlInput: { maxLength: MEMBER_PREFIX_MAX_LENGTH },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      {body}
      <MemberDialogs
        dialog={dialog}
        teamId={teamId}
        now={now}
        onClose={() => setDialog(null)}
        onCredentials={(credentials) => setDialog({ kind: 'credentials', credentials })}
      />
    </Box>
  );
}
