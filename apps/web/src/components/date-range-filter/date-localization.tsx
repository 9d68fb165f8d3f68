import type { Locale } from '@raccolta/contracts';
import type { Locale as DateFnsLocale } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { it } from 'date-fns/locale/it';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS as pickersEnUS, itIT as pickersItIT } from '@mui/x-date-pickers/locales';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { uiLocale } from '../../lib/locale';

type PickerTexts = typeof pickersEnUS.components.MuiLocalizationProvider.defaultProps.localeText;

/**
 * The date-fns locale sets the first day of the week (Sunday in English, Monday in Italian) and
 * the field format; the MUI X texts translate the picker's own buttons and labels.
 */
const DATE_LOCALES: Record<Locale, { dateFns: DateFnsLocale; texts: PickerTexts }> = {
  en: {
    dateFns: enUS,
    texts: pickersEnUS.components.MuiLocalizationProvider.defaultProps.localeText,
  },
  it: {
    dateFns: it,
    texts: pickersItIT.components.MuiLocalizationProvider.defaultProps.localeText,
  },
};

/** Date pickers below it speak the interface language and follow it when it changes. */
export function DateLocalizationProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = DATE_LOCALES[uiLocale(i18n.language)];
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={locale.dateFns}
      localeText={locale.texts}
    >
      {children}
    </LocalizationProvider>
  );
}
