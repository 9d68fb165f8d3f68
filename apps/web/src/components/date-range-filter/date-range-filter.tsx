import Stack from '@mui/material/Stack';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { dateRangeSchema, type DateRange } from '@raccolta/contracts';
import { endOfDay as endOfDate, isValid, startOfDay as startOfDate } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { validationText } from '../../lib/validation-text';
import { ReadOnlyDateField, ReadOnlyDateFieldTextsContext } from './read-only-date-field';
import { DateLocalizationProvider } from './date-localization';

/** Both bounds optional, in epoch milliseconds; the shape of contracts' dateRangeSchema. */
export type DateRangeValue = DateRange;
type Bound = 'from' | 'to';

/** 00:00:00.000 local time of the day `date` falls on, in epoch milliseconds. */
export function startOfDay(date: Date | number): number {
  return startOfDate(date).getTime();
}

/** 23:59:59.999 local time of the day `date` falls on, so that `to` includes the whole day. */
export function endOfDay(date: Date | number): number {
  return endOfDate(date).getTime();
}

/** The validation message key of each bound, as the contracts schema reports it. */
export function dateRangeErrors(range: DateRangeValue): Partial<Record<Bound, string>> {
  const errors: Partial<Record<Bound, string>> = {};
  for (const issue of dateRangeSchema.safeParse(range).error?.issues ?? []) {
    const bound = issue.path[0];
    if ((bound === 'from' || bound === 'to') && errors[bound] === undefined) {
      errors[bound] = issue.message;
    }
  }
  return errors;
}

/** True when the API would refuse the range: from after to (or a bound that is no date). */
export function isDateRangeInvalid(range: DateRangeValue): boolean {
  return !dateRangeSchema.safeParse(range).success;
}

/** The range with one bound replaced; a cleared bound is left out rather than kept as undefined. */
function withBound(range: DateRangeValue, bound: Bound, ms: number | undefined): DateRangeValue {
  const { from, to } = bound === 'from' ? { ...range, from: ms } : { ...range, to: ms };
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

interface DateBoundPickerProps {
  label: string;
  chooseLabel: string;
  clearLabel: string;
  value: number | undefined;
  error: string | undefined;
  onChange: (day: Date | null) => void;
}

function DateBoundPicker({ label, value, onChange, ...texts }: DateBoundPickerProps) {
  return (
    <ReadOnlyDateFieldTextsContext value={texts}>
      <DatePicker
        label={label}
        // Names the phone dialog after the field instead of a generic "Select date".
        localeText={{ toolbarTitle: label }}
        value={value === undefined ? null : new Date(value)}
        onChange={(day) => {
          if (day === null || isValid(day)) onChange(day);
        }}
        disableFuture
        yearsPerRow={4}
        slots={{ field: ReadOnlyDateField }}
        sx={{ width: { xs: '100%', sm: 200 } }}
      />
    </ReadOnlyDateFieldTextsContext>
  );
}

export interface DateRangeFilterProps {
  value: DateRangeValue;
  /** Called on every pick or clear, even when the range is invalid: the screen decides. */
  onChange: (next: DateRangeValue) => void;
}

/**
 * The From and To date filter of the collections and files lists (§2 "Date filter"). From is the
 * start of the picked day, To its end, both in local time. Brings its own date localisation, so
 * the pickers' code loads only with the pages that show them.
 */
export function DateRangeFilter({ value, onChange }: DateRangeFilterProps) {
  const { t } = useTranslation();
  const errors = dateRangeErrors(value);
  const errorText = (bound: Bound) => {
    const message = errors[bound];
    return message === undefined ? undefined : validationText(t, message);
  };
  return (
    <DateLocalizationProvider>
      <Stack
        role="group"
        aria-label={t('dateFilter.label')}
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: 'flex-start' }}
      >
        <DateBoundPicker
          label={t('dateFilter.from')}
          chooseLabel={t('dateFilter.chooseFrom')}
          clearLabel={t('dateFilter.clearFrom')}
          value={value.from}
          error={errorText('from')}
          onChange={(day) => onChange(withBound(value, 'from', day ? startOfDay(day) : undefined))}
        />
        <DateBoundPicker
          label={t('dateFilter.to')}
          chooseLabel={t('dateFilter.chooseTo')}
          clearLabel={t('dateFilter.clearTo')}
          value={value.to}
          error={errorText('to')}
          onChange={(day) => onChange(withBound(value, 'to', day ? endOfDay(day) : undefined))}
        />
      </Stack>
    </DateLocalizationProvider>
  );
}
