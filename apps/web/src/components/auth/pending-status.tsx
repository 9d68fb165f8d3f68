import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A spinner with its text, announced to screen readers. */
export function PendingStatus({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center', py: 1 }}>
      <CircularProgress size={24} aria-hidden />
      <Typography>{text}</Typography>
    </Stack>
  );
}
