import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  COLLECTION_TAGS_MAX,
  MEMBER_SEARCH_DEBOUNCE_MS,
  type Member,
  type MemberRef,
} from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../../components/user-avatar';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { MEMBER_PREFIX_MAX_LENGTH, useMembersQuery } from '../../../lib/members/list-members';

const toRef = ({ userId, nickname, avatarUrl }: Member): MemberRef => ({
  userId,
  nickname,
  avatarUrl,
});

export interface MemberTagsFieldProps {
  teamId: string;
  value: MemberRef[];
  onChange: (value: MemberRef[]) => void;
  disabled?: boolean;
}

/**
 * The members tagged on a collection: chips of the chosen ones and a search over the team's
 * active members by nickname prefix, asked of the API once the typing pauses (spec §9: 500 ms).
 */
export function MemberTagsField({ teamId, value, onChange, disabled }: MemberTagsFieldProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const prefix = useDebouncedValue(input.trim(), MEMBER_SEARCH_DEBOUNCE_MS);
  const query = useMembersQuery(teamId, prefix);
  // Only active members can be tagged: the API refuses anyone else (invalidTeamMember).
  const options = (query.data?.pages.flatMap((page) => page.members) ?? [])
    .filter((member) => member.status === 'active')
    .map(toRef);
  const nameOf = (ref: MemberRef) => ref.nickname ?? t('collections.formerMember');
  const full = value.length >= COLLECTION_TAGS_MAX;

  return (
    <Autocomplete
      multiple
      disabled={disabled}
      options={options}
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next.slice(0, MEMBER_PREFIX_MAX_LENGTH))}
      // The API filters by prefix; the chosen members are left out of the choices.
      filterOptions={(choices) => choices}
      filterSelectedOptions
      isOptionEqualToValue={(option, chosen) => option.userId === chosen.userId}
      getOptionLabel={nameOf}
      getOptionDisabled={() => full}
      loading={query.isFetching}
      loadingText={t('collections.fields.tagsLoading')}
      noOptionsText={t('collections.fields.tagsNone')}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props} sx={{ gap: 1.5 }}>
          {/* The initials would be read before the name. */}
          <Box component="span" aria-hidden sx={{ display: 'flex' }}>
            <UserAvatar name={nameOf(option)} src={option.avatarUrl} size={24} />
          </Box>
          <Typography noWrap>{nameOf(option)}</Typography>
        </Box>
      )}
      slotProps={{ chip: { size: 'small', sx: { maxWidth: 180 } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('collections.fields.tags')}
          helperText={t('collections.fields.tagsHelp')}
        />
      )}
    />
  );
}
