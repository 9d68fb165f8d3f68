import type { SxProps, Theme } from '@mui/material/styles';

/** Read by screen readers, not shown: the usual clip pattern (what @mui/utils' visuallyHidden is). */
export const VISUALLY_HIDDEN = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const satisfies SxProps<Theme>;
