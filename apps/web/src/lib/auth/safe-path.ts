/**
 * Whether a stored or received location is a path of this app. Anything else (`//evil.example`,
 * `https://…`, `javascript:`) could send the user to another site after signing in.
 */
export function isAppPath(value: string | null | undefined): value is string {
  return (
    typeof value === 'string' &&
    value.startsWith('/') &&
    !value.startsWith('//') &&
    !value.startsWith('/\\')
  );
}
