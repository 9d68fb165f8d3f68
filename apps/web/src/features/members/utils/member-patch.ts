import type { Member, MemberPatch } from '@raccolta/contracts';

export type MemberChanges = Partial<Pick<Member, 'role' | 'nickname' | 'status'>>;

/**
 * The RFC 6902 list of a member change: a `replace` for each of role, nickname and status that
 * differs from the member as loaded, in that order (the server applies them in order, all or none).
 */
export function memberPatch(original: Member, changes: MemberChanges): MemberPatch {
  const operations: MemberPatch = [];
  if (changes.role !== undefined && changes.role !== original.role) {
    operations.push({ op: 'replace', path: '/role', value: changes.role });
  }
  if (changes.nickname !== undefined && changes.nickname !== original.nickname) {
    operations.push({ op: 'replace', path: '/nickname', value: changes.nickname });
  }
  if (changes.status !== undefined && changes.status !== original.status) {
    operations.push({ op: 'replace', path: '/status', value: changes.status });
  }
  return operations;
}
