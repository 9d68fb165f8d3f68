import type { User } from '@raccolta/contracts';
import type { UserRow } from './users.repository.js';

export function presentUser(row: UserRow): User {
  return {
    userId: row.id,
    userScope: row.scope,
    email: row.email,
    username: row.username,
    nickname: row.nickname,
    firstName: row.first_name,
    lastName: row.last_name,
    avatarUrl: row.avatar_url,
  };
}
