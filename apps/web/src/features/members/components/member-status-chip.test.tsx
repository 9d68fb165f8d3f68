import type { Member } from '@raccolta/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../i18n';
import { MemberStatusChip } from './member-status-chip';

const NOW = Date.parse('2025-06-01T12:00:00Z');

const CASES: [string, Pick<Member, 'status' | 'inviteExpiresAt'>, string, string][] = [
  ['active', { status: 'active', inviteExpiresAt: null }, 'Active', 'Success'],
  ['a pending invitation', { status: 'invited', inviteExpiresAt: NOW + 1 }, 'Invited', 'Warning'],
  ['pending', { status: 'pending', inviteExpiresAt: null }, 'Idle', 'Warning'],
  ['rejected', { status: 'rejected', inviteExpiresAt: null }, 'Invitation Rejected', 'Error'],
  ['left', { status: 'left', inviteExpiresAt: null }, 'Left', 'Error'],
  ['banned', { status: 'banned', inviteExpiresAt: null }, 'Banned', 'Error'],
  ['disabled', { status: 'disabled', inviteExpiresAt: null }, 'Disabled', 'Error'],
  [
    'an invitation expiring now',
    { status: 'invited', inviteExpiresAt: NOW },
    'Invitation expired',
    'Error',
  ],
  [
    'an invitation past its expiry',
    { status: 'invited', inviteExpiresAt: NOW - 60_000 },
    'Invitation expired',
    'Error',
  ],
];

describe('member status chip', () => {
  afterEach(cleanup);

  it.each(CASES)('shows %s with the spec label and colour', (_name, member, label, colour) => {
    render(<MemberStatusChip member={member} now={NOW} />);
    const chip = screen.getByText(label).closest('.MuiChip-root');
    expect(chip?.className).toContain(`MuiChip-color${colour}`);
  });
});
