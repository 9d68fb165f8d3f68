import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage } from '../i18n/detect-language';
// The script's text, as the build inlines it into index.html.
import script from './landing-boot.js?raw';

function runBoot(languages: string[], path = '/'): string {
  document.body.innerHTML =
    '<div id="root"></div>' +
    '<template id="boot-landing-en"><h1>Collect</h1></template>' +
    '<template id="boot-landing-it"><h1>Raccogli</h1></template>';
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  window.history.replaceState(null, '', path);
  // The script as index.html runs it: a classic script element in the page.
  const element = document.createElement('script');
  element.textContent = script;
  document.body.append(element);
  return document.getElementById('root')?.textContent ?? '';
}

describe('landing-boot.js', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('shows the heading in the language the app will pick', () => {
    for (const languages of [['en-US'], ['it-IT'], ['en-US', 'it'], ['de', 'IT_ch'], ['fr'], []]) {
      const expected = detectLanguage(languages) === 'it' ? 'Raccogli' : 'Collect';
      expect(runBoot(languages), languages.join(',')).toBe(expected);
      expect(document.documentElement.lang).toBe(detectLanguage(languages));
    }
  });

  it('shows nothing on other pages, or to a signed-in visitor', () => {
    expect(runBoot(['en'], '/auth/signin')).toBe('');
    localStorage.setItem('AccessToken', 'token');
    expect(runBoot(['en'])).toBe('');
  });
});
