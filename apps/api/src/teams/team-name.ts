import { foldText } from '../db/fold-text.js';
import { escapeLike } from '../db/like.js';

/**
 * Team names are searched by a part of the name without regard to case. The fold is done here
 * rather than with the database's lower(), which folds only ASCII on SQLite (and on PostgreSQL
 * depends on the database's locale): both databases must answer alike. Every write of teams.name
 * sets teams.name_key to this.
 */
export function teamNameKey(name: string): string {
  return foldText(name);
}

/** A search for a part of the name, folded like the stored key. */
export function teamNameSearchPattern(search: string): string {
  return `%${escapeLike(foldText(search.trim()))}%`;
}
