import { foldText } from '../db/fold-text.js';
import { escapeLike } from '../db/like.js';

/**
 * Nicknames are unique per team and searched by prefix without regard to case. The fold is done
 * here rather than with the database's lower(), which folds only ASCII on SQLite and every letter
 * on PostgreSQL: both databases must answer alike. Every write of team_members.nickname sets
 * nickname_key to this.
 */
export function nicknameKey(nickname: string): string {
  return foldText(nickname.trim());
}

/** A search prefix: folded like a nickname, but a trailing space still narrows the search. */
export function nicknamePrefixPattern(prefix: string): string {
  const folded = foldText(prefix.trimStart());
  return `${escapeLike(folded)}%`;
}
