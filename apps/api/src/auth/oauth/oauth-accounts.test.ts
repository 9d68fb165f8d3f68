import { describe, expect, it } from 'vitest';
import { nicknameFrom } from './oauth-accounts.js';

describe('nicknameFrom', () => {
  it.each([
    [{ name: 'Alice Example' }, 'Alice Example'],
    [{ name: "Zoë D'Àngelo-Rossi" }, "Zoë D'Àngelo-Rossi"],
    [{ givenName: 'Ada', familyName: 'Lovelace' }, 'Ada Lovelace'],
    [{ name: 'R2', givenName: 'Artoo', familyName: 'Detoo' }, 'Artoo Detoo'],
    [{ name: 'Émile   (work) 42' }, 'Émile work'],
    [{ name: 'A'.repeat(40) }, 'A'.repeat(30)],
    [{ name: '李小龍' }, '李小龍'],
    [{ name: '42' }, null],
    [{}, null],
  ])('%j → %s', (names, nickname) => {
    expect(nicknameFrom(names)).toBe(nickname);
  });
});
