import CookieOutlined from '@mui/icons-material/CookieOutlined';
import Fab from '@mui/material/Fab';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { resetConsent } from '../hooks/use-consent';

/** The button itself (see ConsentResetButton): in view at the end of the page, else below it. */
export default function ConsentResetFab({ atEnd }: { atEnd: boolean }) {
  const { t } = useTranslation();
  const label = t('consent.reset');
  return (
    <LazyTooltip title={label}>
      <Fab
        size="small"
        color="default"
        aria-label={label}
        onClick={resetConsent}
        sx={(theme) => ({
          position: 'fixed',
          right: 16,
          bottom: 16,
          zIndex: theme.zIndex.speedDial,
          transition: theme.transitions.create('transform'),
          transform: atEnd ? 'none' : 'translateY(calc(100% + 24px))',
          '&:focus-visible': { transform: 'none' },
        })}
      >
        <CookieOutlined />
      </Fab>
    </LazyTooltip>
  );
}
