import Box from '@mui/material/Box';
import { lazy, Suspense } from 'react';
import { useFeatureFlag } from '../../feature-flags';

// Downloaded only where the flag is on; most visitors never see the switcher.
const LanguageSwitcher = lazy(() =>
  import('../../../components/language-switcher').then((m) => ({ default: m.LanguageSwitcher })),
);

/** The switcher's height, kept while it arrives so the page below does not jump. */
const SWITCHER_HEIGHT = 31;

/** Spec §2: the landing page offers the language switcher only when lang-switcher is on. */
export function LandingLanguageSwitcher() {
  const on = useFeatureFlag('lang-switcher');
  if (!on) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: { xs: -3, sm: -6 }, mb: 4 }}>
      <Suspense fallback={<Box sx={{ height: SWITCHER_HEIGHT }} />}>
        <LanguageSwitcher />
      </Suspense>
    </Box>
  );
}
