import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { dueState, type Collection } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useNow } from '../lib/use-now';

/** The deadline as its own zone writes it, in the reader's language: "1 Dec 2026, 18:00 (Europe/Rome)". */
export function formatDeadline(deadline: NonNullable<Collection['deadline']>, language: string) {
  const when = new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: deadline.timeZone,
  }).format(new Date(deadline.at));
  return `${when} (${deadline.timeZone})`;
}

/**
 * "Due in 3 days", "Due today" or "Closed" (issue #36), counted in the deadline's zone
 * (contracts' dueState); nothing without a deadline. Renewed every minute.
 */
export function DueChip({
  collection,
  sx,
}: {
  collection: Pick<Collection, 'deadline' | 'allowLateUploads'>;
  sx?: object;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const { deadline } = collection;
  if (!deadline) return null;
  const due = dueState({ at: Date.parse(deadline.at), timeZone: deadline.timeZone }, now);
  const label =
    due.state === 'open'
      ? t('collections.due.inDays', { count: due.days })
      : due.state === 'today'
        ? t('collections.due.today')
        : t(collection.allowLateUploads ? 'collections.due.closedLate' : 'collections.due.closed');
  const color = due.state === 'open' ? 'default' : due.state === 'today' ? 'warning' : 'error';
  return (
    <Tooltip title={t('collections.due.hint', { date: formatDeadline(deadline, i18n.language) })}>
      <Chip
        size="small"
        variant="outlined"
        color={color}
        label={label}
        data-testid="due-chip"
        sx={{ flexShrink: 0, height: 20, fontSize: '0.75rem', ...sx }}
      />
    </Tooltip>
  );
}
