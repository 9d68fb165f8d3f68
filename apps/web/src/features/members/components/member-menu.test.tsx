import type { MemberRole, MemberStatus, MemberType } from '@raccolta/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n';
import { ADA } from '../../../test/session-fixtures';
import { member } from '../../../test/team-fixtures';
import { MemberMenu } from './member-menu';

interface Case {
  actor: MemberRole;
  target: { role: MemberRole; status: MemberStatus; type?: MemberType };
  self?: boolean;
  items: string[];
}

// Spec §6 "Member menu", written out case by case rather than computed from the policy functions.
const CASES: Case[] = [
  {
    actor: 'owner',
    target: { role: 'admin', status: 'active' },
    items: ['Info', 'Change role', 'Disable', 'Rename', 'Remove'],
  },
  {
    actor: 'owner',
    target: { role: 'uploader', status: 'active', type: 'internal' },
    items: ['Info', 'Reset password', 'Disable', 'Rename', 'Remove'],
  },
  {
    actor: 'owner',
    target: { role: 'viewer', status: 'invited' },
    items: ['Info', 'Resend invitation', 'Rename', 'Remove'],
  },
  {
    actor: 'owner',
    target: { role: 'uploader', status: 'disabled' },
    items: ['Info', 'Reactivate', 'Rename', 'Remove'],
  },
  {
    actor: 'owner',
    target: { role: 'viewer', status: 'banned' },
    items: ['Info', 'Reactivate', 'Rename', 'Remove'],
  },
  {
    actor: 'owner',
    target: { role: 'viewer', status: 'rejected' },
    items: ['Info', 'Rename', 'Remove'],
  },
  {
    actor: 'owner',
    target: { role: 'owner', status: 'active' },
    self: true,
    items: ['Info', 'Rename'],
  },
  {
    actor: 'admin',
    target: { role: 'admin', status: 'active' },
    items: ['Info', 'Change role', 'Disable', 'Rename', 'Remove'],
  },
  {
    actor: 'admin',
    target: { role: 'uploader', status: 'disabled', type: 'internal' },
    items: ['Info', 'Reset password', 'Reactivate', 'Rename', 'Remove'],
  },
  { actor: 'admin', target: { role: 'owner', status: 'active' }, items: ['Info'] },
  {
    actor: 'admin',
    target: { role: 'admin', status: 'active' },
    self: true,
    items: ['Info', 'Rename'],
  },
  { actor: 'uploader', target: { role: 'viewer', status: 'active' }, items: ['Info'] },
  {
    actor: 'uploader',
    target: { role: 'uploader', status: 'active', type: 'internal' },
    self: true,
    items: ['Info', 'Rename'],
  },
  { actor: 'viewer', target: { role: 'owner', status: 'active' }, items: ['Info'] },
  { actor: 'viewer', target: { role: 'uploader', status: 'invited' }, items: ['Info'] },
  {
    actor: 'viewer',
    target: { role: 'viewer', status: 'active' },
    self: true,
    items: ['Info', 'Rename'],
  },
];

function describeCase({ actor, target, self }: Case): string {
  const who = self ? 'oneself' : `${target.type ?? 'standard'} ${target.role}`;
  return `${actor} on ${who} (${target.status})`;
}

describe('member menu', () => {
  afterEach(cleanup);

  it.each(CASES.map((c) => [describeCase(c), c] as const))('%s', (_name, testCase) => {
    const target = member({
      ...(testCase.self ? { userId: ADA.sub } : {}),
      role: testCase.target.role,
      status: testCase.target.status,
      type: testCase.target.type ?? 'standard',
      nickname: 'Bea',
    });
    const onAction = vi.fn();
    render(
      <MemberMenu
        actor={{ userId: ADA.sub, role: testCase.actor }}
        member={target}
        onAction={onAction}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Bea' }));
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual(testCase.items);

    fireEvent.click(screen.getByRole('menuitem', { name: 'Info' }));
    expect(onAction).toHaveBeenCalledWith('info', target);
  });
});
