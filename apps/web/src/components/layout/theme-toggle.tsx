import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../theme/theme-mode-context';

export function ThemeToggle() {
  const { t } = useTranslation();
  const { mode, toggleMode } = useThemeMode();
  const label = mode === 'dark' ? t('header.switchToLight') : t('header.switchToDark');
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" onClick={toggleMode} aria-label={label}>
        {mode === 'dark' ? <LightModeOutlined /> : <DarkModeOutlined />}
      </IconButton>
    </Tooltip>
  );
}
