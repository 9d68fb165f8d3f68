import Chip from '@mui/material/Chip';
import type { StatusResponse } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';

const COLOURS = { ok: 'success', degraded: 'warning' } as const;

export function StatusChip({ status }: { status: StatusResponse['status'] }) {
  const { t } = useTranslation();
  return <Chip label={t(`statusPage.states.${status}`)} color={COLOURS[status]} size="small" />;
}
