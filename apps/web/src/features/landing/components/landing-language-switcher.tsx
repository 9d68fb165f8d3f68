import Box from '@mui/material/Box';
import { lazy, Suspense } from 'react';
import { useFeatureFlag } from '../../../lib/feature-flags/hooks/use-feature-flag';

// Downloaded only where the flag is on; most visitors never see the switcher.
const LanguageSwitcher = lazy(() =>
  import('../../../components/language-switcher').then((m) => ({ default: m.LanguageSwitcher })),
);

/** The switcher's height, kept while it arrives. */
const SWITCHER_HEIGHT = 33;

/**
 * Spec §2: the landing page offers the language switcher only when lang-switcher is on. It is
 * placed in the top padding of the landing page's column (position: relative there), above the
 * heading and out of the flow: the heading does not move when it appears.
 */
export function LandingLanguageSwitcher() {
  const on = useFeatureFlag('lang-switcher');
  if (!on) return null;
  return (
    <Box
      sx={{
        position: 'absolute',
        top: { xs: 4, sm: 8 },
        left: 0,
        right: 0,
        display: 'flex',
        justifyContent: 'center',
      }}
    >
      <Suspense fallback={<Box sx={{ height: SWITCHER_HEIGHT }} />}>
        <LanguageSwitcher />
      </Suspense>
    </Box>
  );
}
