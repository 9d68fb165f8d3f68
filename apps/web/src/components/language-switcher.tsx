import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LANGUAGES, type Language } from '../i18n/detect-language';

/**
 * Switches the interface language for this page load; the next visit follows the browser's
 * languages again (spec §1). Each language is named in itself, and marked so for screen readers.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = SUPPORTED_LANGUAGES.find((language) => i18n.language.startsWith(language));
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={current ?? null}
      aria-label={t('languageSwitcher.label')}
      onChange={(_event, language: Language | null) => {
        if (language !== null) void i18n.changeLanguage(language);
      }}
    >
      {SUPPORTED_LANGUAGES.map((language) => (
        <ToggleButton
          key={language}
          value={language}
          lang={language}
          sx={{ px: 1.5, py: 0.5, textTransform: 'none' }}
        >
          {t(`languageSwitcher.${language}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
