/** Spec §2: the preferred-name input blocks leading spaces as they are typed. */
export const withoutLeadingSpaces = (value: string): string => value.replace(/^\s+/, '');
