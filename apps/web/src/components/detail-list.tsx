import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A read-only list of labelled values; label above value on a phone, beside it from sm up. */
export function DetailList({ children }: { children: ReactNode }) {
  return (
    <Stack component="dl" spacing={1.5} sx={{ m: 0 }}>
      {children}
    </Stack>
  );
}

export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '9rem 1fr' },
        gap: { xs: 0.25, sm: 2 },
        alignItems: 'baseline',
      }}
    >
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere', typography: 'body1' }}>
        {children}
      </Box>
    </Box>
  );
}
