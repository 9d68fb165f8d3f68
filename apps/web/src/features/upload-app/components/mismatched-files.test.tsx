import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import type { Mismatch } from '../utils/resume-match';
import { MismatchedFiles } from './mismatched-files';

const STARTED = Date.parse('2026-11-27T14:08:42.120Z');

function mismatchOf(chosen: File, stored: { size: number; lastModified: number }): Mismatch {
  return {
    file: chosen,
    upload: {
      urlStorageKey: 'tus::key',
      fingerprint: `scope|${stored.size}|${stored.lastModified}|image/png|tour-1.png`,
      uploadUrl: '/api/uploads/1',
      fileName: 'tour-1.png',
      size: stored.size,
      startedAt: STARTED,
    },
    differences: ['lastModified'],
  };
}

function lines(): [string, string] {
  const list = screen.getByRole('list', { name: 'Files not uploaded' });
  const interrupted = list.querySelector('p:nth-of-type(1)')?.textContent ?? '';
  const chosen = list.querySelector('p:nth-of-type(2)')?.textContent ?? '';
  return [interrupted, chosen];
}

function show(mismatch: Mismatch) {
  render(<MismatchedFiles mismatches={[mismatch]} onUploadNew={vi.fn()} onSkip={vi.fn()} />);
}

describe('a file that is not the interrupted one', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(cleanup);

  it('writes the dates to the minute when the minutes differ', () => {
    const chosen = new File(['x'.repeat(10)], 'tour-1.png', {
      type: 'image/png',
      lastModified: STARTED + 3 * 60_000,
    });
    show(mismatchOf(chosen, { size: 10, lastModified: STARTED }));
    const [interrupted, picked] = lines();
    expect(interrupted).toMatch(
      /^Interrupted: tour-1\.png · 10 bytes · changed \S+ \d+:\d\d [AP]M$/,
    );
    expect(picked).not.toBe(interrupted.replace('Interrupted', 'Chosen'));
  });

  it('adds seconds, then milliseconds, until the two lines differ', () => {
    const sameSecond = new File(['x'.repeat(10)], 'tour-1.png', {
      type: 'image/png',
      lastModified: STARTED + 250,
    });
    show(mismatchOf(sameSecond, { size: 10, lastModified: STARTED }));
    const [interrupted, picked] = lines();
    expect(interrupted).toMatch(/:42\.120/);
    expect(picked).toMatch(/:42\.370/);
    expect(picked.replace('Chosen', 'Interrupted')).not.toBe(interrupted);
    cleanup();

    const sameMinute = new File(['x'.repeat(10)], 'tour-1.png', {
      type: 'image/png',
      lastModified: STARTED + 5_000,
    });
    show(mismatchOf(sameMinute, { size: 10, lastModified: STARTED }));
    const [first, second] = lines();
    expect(first).toMatch(/:42 [AP]M$/);
    expect(second).toMatch(/:47 [AP]M$/);
  });
});
