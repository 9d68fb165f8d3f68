import Add from '@mui/icons-material/Add';
import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { canCreateTeam, MEMBER_SEARCH_DEBOUNCE_MS } from '@raccolta/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { useErrorText } from '../../../lib/error-text';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useCurrentUser } from '../../../lib/auth/get-current-user';
import { TEAM_SEARCH_MAX_LENGTH, useTeamsQuery } from '../../../lib/teams/list-teams';
import { teamPath } from '../../../lib/teams/team-keys';
import { CreateFirstTeamPrompt } from './create-first-team-prompt';
import { CreateTeamDialog } from './create-team-dialog';
import { TeamList } from './team-list';
import { useDocumentTitle } from '../../../lib/use-document-title';

// The spec gives a debounce only for the member search; the team search types the same way.
const TEAM_SEARCH_DEBOUNCE_MS = MEMBER_SEARCH_DEBOUNCE_MS;

export interface TeamChooserProps {
  title: string;
  /** Open the team at once when the user has exactly one (on for /teams, off for /switch-team). */
  autoRedirect: boolean;
}

/** The user's teams: search, infinite scroll, the create-team dialog (spec §2 "Teams"). */
export function TeamChooser({ title, autoRedirect }: TeamChooserProps) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const mayCreate = user !== undefined && canCreateTeam(user.userScope);
  const [search, setSearch] = useState('');
  // Auto-redirect is for arriving at the page, not for a search that happens to leave one team.
  const [searched, setSearched] = useState(false);
  const term = useDebouncedValue(search.trim(), TEAM_SEARCH_DEBOUNCE_MS);
  const query = useTeamsQuery(term);
  const [creating, setCreating] = useState(false);

  const pages = query.data?.pages ?? [];
  const teams = pages.flatMap((page) => page.teams);
  const onlyTeam =
    pages.length === 1 && teams.length === 1 && pages[0]?.pagination.lastKey === null
      ? teams[0]
      : undefined;
  if (autoRedirect && !searched && onlyTeam !== undefined) {
    return <Navigate to={teamPath(onlyTeam)} replace />;
  }

  const searching = term !== '' || search.trim() !== '';
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>{t('teams.loading')}</Typography>
      </Stack>
    );
  } else if (query.isError && teams.length === 0) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('actions.retry')}
          </Button>
        }
      >
        {errorText(query.error)}
      </Alert>
    );
  } else if (teams.length === 0 && searching) {
    body = <Typography color="text.secondary">{t('teams.noResults', { search: term })}</Typography>;
  } else if (teams.length === 0) {
    body = mayCreate ? (
      <CreateFirstTeamPrompt onCreate={() => setCreating(true)} />
    ) : (
      <Alert severity="info">{t('teams.none')}</Alert>
    );
  } else {
    body = (
      <>
        <TeamList teams={teams} />
        <LoadMoreSentinel
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      </>
    );
  }

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }}>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 3 }}
      >
        <Typography
          variant="h4"
          component="h1"
          sx={{ fontSize: { xs: '1.75rem', sm: '2.125rem' } }}
        >
          {title}
        </Typography>
        {mayCreate && (teams.length > 0 || searching) && (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setCreating(true)}
            sx={{ flexShrink: 0 }}
          >
            {t('teams.newTeam')}
          </Button>
        )}
      </Stack>
      {(teams.length > 0 || searching) && (
        <TextField
          type="search"
          fullWidth
          label={t('teams.search')}
          value={search}
          onChange={(event) => {
            setSearched(true);
            setSearch(event.target.value);
          }}
          sx={{ mb: 2 }}
          slotProps={{
            htmlInput: { maxLength: TEAM_SEARCH_MAX_LENGTH },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
      {body}
      {creating && (
        <CreateTeamDialog
          onClose={() => setCreating(false)}
          onCreated={(teamId) => void navigate(`/teams/${encodeURIComponent(teamId)}`)}
        />
      )}
    </Container>
  );
}
