import { alpha, createTheme, ThemeProvider, type Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * The app's theme, with one change in dark mode: text in the primary colour (links, text and
 * outlined buttons) uses its lighter shade, since #1976d2 on the dark background reaches only
 * about 4:1, short of WCAG AA for text. Filled buttons keep the brand blue (white on it is 4.6:1).
 */
export function readableDarkPrimary(outer: Theme): Theme {
  if (outer.palette.mode !== 'dark') return outer;
  const light = outer.palette.primary.light;
  return createTheme(outer, {
    components: {
      MuiLink: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { color: 'primary' },
                style: { color: light, textDecorationColor: alpha(light, 0.4) },
              },
            ],
          },
        },
      },
      MuiButton: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { variant: 'outlined', color: 'primary' },
                style: {
                  '--variant-outlinedColor': light,
                  '--variant-outlinedBorder': alpha(light, 0.5),
                },
              },
              {
                props: { variant: 'text', color: 'primary' },
                style: { '--variant-textColor': light },
              },
            ],
          },
        },
      },
    },
  });
}

export function UploadAppTheme({ children }: { children: ReactNode }) {
  return <ThemeProvider theme={readableDarkPrimary}>{children}</ThemeProvider>;
}
