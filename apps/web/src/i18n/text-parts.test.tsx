import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../app/router';
import {
  errorResponse,
  fetchRoutes,
  jsonResponse,
  stubMatchMedia,
  renderRoutes,
} from '../test/providers';
import { i18n } from '.';
import en from './locales/en.json';
import it_ from './locales/it.json';
import { FIRST_PAGE_SECTIONS, textPart } from './text-parts';

const full = { en, it: it_ } as const;
const fetchMock = vi.fn<typeof fetch>();
let missing: string[] = [];

/** i18next with each language's first part only, as a visitor's browser has it on `/`. */
function keepFirstPartOnly() {
  for (const [language, texts] of Object.entries(full)) {
    i18n.removeResourceBundle(language, 'translation');
    i18n.addResourceBundle(language, 'translation', textPart(texts, 'first'));
  }
}

function restoreAllTexts() {
  for (const [language, texts] of Object.entries(full)) {
    i18n.removeResourceBundle(language, 'translation');
    i18n.addResourceBundle(language, 'translation', texts);
  }
}

describe('the texts of the first page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    missing = [];
    keepFirstPartOnly();
    i18n.options.parseMissingKeyHandler = (key: string) => {
      missing.push(key);
      return key;
    };
  });
  afterEach(async () => {
    cleanup();
    delete i18n.options.parseMissingKeyHandler;
    restoreAllTexts();
    await i18n.changeLanguage('en');
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    document.cookie = 'CookieConsent=; Max-Age=0; Path=/';
  });

  it('cuts each language in two parts that together hold every section once', () => {
    for (const texts of Object.values(full)) {
      const first = Object.keys(textPart(texts, 'first'));
      const rest = Object.keys(textPart(texts, 'rest'));
      expect(first.sort()).toEqual([...FIRST_PAGE_SECTIONS].sort());
      expect(rest.length).toBeGreaterThan(0);
      expect([...first, ...rest].sort()).toEqual(Object.keys(texts).sort());
    }
  });

  it.each(['en', 'it'])(
    'are all the landing page and its frame show in %s: form errors, refusals, success, cookies',
    async (language) => {
      await i18n.changeLanguage(language);
      let answer = () => errorResponse(409, 'alreadySubscribed');
      fetchMock.mockImplementation(
        fetchRoutes({
          'GET /client-config': () => jsonResponse(200, { featureFlags: [], analytics: null }),
          'POST /subscriptions': () => answer(),
        }),
      );
      renderRoutes(routes, '/');
      expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();

      // Every field error, then a refusal, a dropped connection and the success message.
      const submit = screen.getByRole('button', { name: i18n.t('newsletter.subscribe.submit') });
      fireEvent.click(submit);
      await waitFor(() =>
        expect(screen.getAllByText(/\S/, { selector: 'p.Mui-error' })).toHaveLength(2),
      );
      fireEvent.change(screen.getByRole('textbox'), { target: { value: 'zoe@' } });
      await screen.findByText(i18n.t('validation.invalidEmail'));
      fireEvent.change(screen.getByRole('textbox'), { target: { value: 'zoe@example.com' } });
      fireEvent.click(screen.getByRole('checkbox'));
      fireEvent.click(submit);
      await screen.findByText(i18n.t('errors.alreadySubscribed'));
      fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
      fireEvent.click(submit);
      const retry = await screen.findByRole('button', { name: i18n.t('actions.retry') });
      answer = () => jsonResponse(202, { status: 'pending' });
      fireEvent.click(retry);
      await screen.findByRole('status');

      // The cookie banner, then the button that takes the choice back.
      fireEvent.click(screen.getByRole('button', { name: i18n.t('consent.accept') }));
      await screen.findByRole('button', { name: i18n.t('consent.reset') });

      expect(missing).toEqual([]);
    },
  );
});
