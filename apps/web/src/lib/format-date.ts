/** A date in the interface language; the input is ISO 8601 or epoch milliseconds. */
export function formatDate(value: string | number, language: string, withTime = false): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(date);
}
