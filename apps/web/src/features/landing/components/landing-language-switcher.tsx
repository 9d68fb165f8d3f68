import Box from '@mui/material/Box';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { useFeatureFlag } from '../../feature-flags';

/** Spec §2: the landing page offers the language switcher only when lang-switcher is on. */
export function LandingLanguageSwitcher() {
  const on = useFeatureFlag('lang-switcher');
  if (!on) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: { xs: -3, sm: -6 }, mb: 4 }}>
      <LanguageSwitcher />
    </Box>
  );
}
