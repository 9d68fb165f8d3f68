import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';

/** Up to two letters: of the first and last word of a name, or the first of an e-mail. */
export function initialsOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') return '';
  if (trimmed.includes('@')) return (Array.from(trimmed)[0] ?? '').toUpperCase();
  const words = trimmed.split(/\s+/);
  const first = Array.from(words[0] ?? '')[0] ?? '';
  const last = words.length > 1 ? (Array.from(words.at(-1) ?? '')[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

/**
 * Initials drawn by CSS (`::before`), not written into the page: an avatar always sits beside the
 * name it stands for, so its letters are decoration. As text they would be read aloud (repeating
 * the name) and, inside a named button (“Show only the files uploaded by …”), they would be
 * visible text missing from the button's name (WCAG 2.5.3 label in name).
 */
export function Initials({ text }: { text: string }) {
  return (
    <Box
      component="span"
      data-initials={text}
      sx={{ '&::before': { content: 'attr(data-initials)' } }}
    />
  );
}

/** The user's picture, or their initials when there is none (spec §3: a generated avatar). */
export function UserAvatar({
  name,
  src,
  size = 32,
}: {
  name: string;
  src?: string | null;
  size?: number;
}) {
  return (
    <Avatar
      aria-hidden
      alt={name}
      {...(src ? { src } : {})}
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.42,
        fontWeight: 600,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
      }}
    >
      <Initials text={initialsOf(name)} />
    </Avatar>
  );
}
