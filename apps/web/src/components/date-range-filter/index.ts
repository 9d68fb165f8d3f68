export {
  DateRangeFilter,
  dateRangeErrors,
  endOfDay,
  isDateRangeInvalid,
  startOfDay,
  type DateRangeFilterProps,
  type DateRangeValue,
} from './date-range-filter';
export { DateLocalizationProvider } from './date-localization';
