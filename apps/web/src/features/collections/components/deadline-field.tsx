import Autocomplete from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Every IANA zone the browser knows, the current one first if it is missing from the list. */
function timeZones(current: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

export interface DeadlineValue {
  /** "2026-12-01T18:00", or "" for no deadline. */
  local: string;
  timeZone: string;
  allowLateUploads: boolean;
}

/**
 * A collection's optional deadline (issue #36): a local date and time, the zone it is read in
 * (the browser's by default) and whether files are still accepted after it, marked late.
 */
export function DeadlineField({
  value,
  onChange,
  disabled,
  error,
}: {
  value: DeadlineValue;
  onChange: (value: DeadlineValue) => void;
  disabled?: boolean;
  /** A translated message under the date field. */
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const zones = useMemo(() => timeZones(value.timeZone), [value.timeZone]);
  const set = (change: Partial<DeadlineValue>) => onChange({ ...value, ...change });
  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField
          type="datetime-local"
          label={t('collections.deadline.label')}
          value={value.local}
          onChange={(e) => set({ local: e.target.value })}
          disabled={disabled}
          error={error !== undefined}
          helperText={error}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'deadline' } }}
          sx={{ flex: 1 }}
        />
        <Autocomplete
          options={zones}
          value={value.timeZone}
          disableClearable
          disabled={disabled || value.local === ''}
          onChange={(_event, zone) => set({ timeZone: zone })}
          renderInput={(params) => (
            <TextField {...params} label={t('collections.deadline.timeZone')} />
          )}
          sx={{ flex: 1, minWidth: 0 }}
        />
      </Stack>
      {value.local !== '' && (
        <div>
          <FormControlLabel
            control={
              <Switch
                checked={value.allowLateUploads}
                onChange={(e) => set({ allowLateUploads: e.target.checked })}
                disabled={disabled}
              />
            }
            label={t('collections.deadline.allowLate')}
          />
          <FormHelperText sx={{ mt: 0 }}>{t('collections.deadline.allowLateHint')}</FormHelperText>
        </div>
      )}
    </Stack>
  );
}
