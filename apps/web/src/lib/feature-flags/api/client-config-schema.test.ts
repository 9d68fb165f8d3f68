import { clientConfigResponseSchema } from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import { clientConfigShape } from './client-config-schema';

const plausible = {
  provider: 'plausible',
  scriptUrl: 'https://stats.example/js/script.js',
  domain: 'raccolta.example',
};
const matomo = {
  provider: 'matomo',
  scriptUrl: 'http://matomo.example/matomo.js',
  trackerUrl: 'http://matomo.example/matomo.php',
  siteId: '3',
};

describe('client configuration check', () => {
  it('answers as the contracts schema does', () => {
    const answers: unknown[] = [
      { featureFlags: [], analytics: null },
      { featureFlags: ['lang-switcher', 'query-dev'], analytics: plausible },
      { featureFlags: ['lang-switcher'], analytics: matomo, extra: true },
      { featureFlags: [], analytics: { ...plausible, extra: 'dropped' } },
      { featureFlags: ['dark-magic'], analytics: null },
      { featureFlags: 'lang-switcher', analytics: null },
      { featureFlags: [] },
      { analytics: null },
      { featureFlags: [], analytics: { ...plausible, domain: '' } },
      { featureFlags: [], analytics: { ...plausible, scriptUrl: 'ftp://stats.example/s.js' } },
      { featureFlags: [], analytics: { ...plausible, scriptUrl: 'javascript:alert(1)' } },
      { featureFlags: [], analytics: { ...plausible, scriptUrl: 'not a url' } },
      { featureFlags: [], analytics: { ...matomo, trackerUrl: undefined } },
      { featureFlags: [], analytics: { ...matomo, siteId: 3 } },
      { featureFlags: [], analytics: { ...matomo, provider: 'ga' } },
      { featureFlags: [], analytics: [] },
      null,
      [],
      'config',
    ];
    for (const answer of answers) {
      const expected = clientConfigResponseSchema.safeParse(answer);
      const actual = clientConfigShape.safeParse(answer);
      expect(actual.success, JSON.stringify(answer)).toBe(expected.success);
      if (actual.success && expected.success) expect(actual.data).toEqual(expected.data);
    }
  });
});
