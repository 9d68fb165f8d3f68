import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../theme/theme-mode-context';
import { LazyTooltip } from '../lazy-tooltip';

export function ThemeToggle() {
  const { t } = useTranslation();
  const { mode, toggleMode } = useThemeMode();
  const label = mode === 'dark' ? t('header.switchToLight') : t('header.switchToDark');
  return (
    <LazyTooltip title={label}>
      <IconButton color="inherit" onClick={toggleMode} aria-label={label}>
        {mode === 'dark' ? <LightModeOutlined /> : <DarkModeOutlined />}
      </IconButton>
    </LazyTooltip>
  );
}
