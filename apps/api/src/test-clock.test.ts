import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverClock } from './test-clock.js';

describe('serverClock', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-clock-'));
  const file = path.join(dir, 'offset');
  afterEach(() => rmSync(file, { force: true }));

  it('runs ahead by the file’s offset under NODE_ENV=test only', () => {
    writeFileSync(file, String(3 * 86_400_000));
    const ahead = serverClock({ env: 'test' }, { TEST_CLOCK_FILE: file })();
    expect(ahead - Date.now()).toBeGreaterThan(3 * 86_400_000 - 1000);
    expect(serverClock({ env: 'production' }, { TEST_CLOCK_FILE: file })).toBe(Date.now);
    expect(serverClock({ env: 'test' }, {})).toBe(Date.now);
  });

  it('reads the file at every tick, and a missing one is no offset', () => {
    const clock = serverClock({ env: 'test' }, { TEST_CLOCK_FILE: file });
    expect(Math.abs(clock() - Date.now())).toBeLessThan(1000);
    writeFileSync(file, '60000');
    expect(clock() - Date.now()).toBeGreaterThan(59_000);
  });
});
