import Avatar from '@mui/material/Avatar';
import type { Team } from '@raccolta/contracts';
import { Initials, initialsOf } from './user-avatar';

/**
 * The team's logo, or its initials on a square tile (people are round, teams are not). Hidden
 * from assistive technology like UserAvatar: the team's name is always written beside it.
 */
export function TeamAvatar({
  team,
  size = 40,
}: {
  team: Pick<Team, 'name' | 'logoUrl'>;
  size?: number;
}) {
  return (
    <Avatar
      aria-hidden
      variant="rounded"
      alt={team.name}
      {...(team.logoUrl ? { src: team.logoUrl } : {})}
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.4,
        fontWeight: 600,
        bgcolor: 'secondary.main',
        color: 'secondary.contrastText',
      }}
    >
      <Initials text={initialsOf(team.name)} />
    </Avatar>
  );
}
