import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { LEGAL_VERSIONS } from '@raccolta/contracts';
import type { RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes as appRoutes } from '../../../app/router';
import { i18n } from '../../../i18n';
import { eagerRoutes, renderRoutes, stubMatchMedia } from '../../../test/providers';
import { legalDocument } from '../content/legal-document';
import { formatVersionDate } from './legal-page';

let routes: RouteObject[];
beforeAll(async () => {
  routes = await eagerRoutes(appRoutes);
});

describe('legal pages', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('scrollTo', vi.fn());
    document.title = 'Raccolta';
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('formats the version date for the language', () => {
    expect(formatVersionDate('2025-03-05', 'en')).toBe('5 March 2025');
    expect(formatVersionDate('2025-03-05', 'it')).toBe('5 marzo 2025');
  });

  it('shows /terms to anyone: title, version date, every section, tab title', () => {
    renderRoutes(routes, '/terms');
    const terms = legalDocument('terms', 'en');
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    const version = screen.getByText('5 March 2025');
    expect(version.tagName).toBe('TIME');
    expect(version.getAttribute('datetime')).toBe(LEGAL_VERSIONS.terms);
    expect(version.parentElement?.textContent).toBe('Version of 5 March 2025');

    const headings = within(screen.getByRole('article')).getAllByRole('heading', { level: 2 });
    expect(headings.map((heading) => heading.textContent)).toEqual(
      terms.sections.map((section) => section.heading),
    );
    const first = screen.getByRole('region', { name: terms.sections[0]?.heading });
    expect(within(first).getAllByRole('listitem')).toHaveLength(
      terms.sections[0]?.bullets.length ?? -1,
    );
    expect(document.title).toBe('Terms of Service · Raccolta');
  });

  it('shows /privacy with its conclusions, and follows a language change at once', async () => {
    renderRoutes(routes, '/privacy');
    const privacy = legalDocument('privacy', 'en');
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(screen.getByText(privacy.sections[0]?.conclusion ?? '')).toBeTruthy();
    expect(document.title).toBe('Privacy Policy · Raccolta');

    await act(() => i18n.changeLanguage('it'));
    const italian = legalDocument('privacy', 'it');
    expect(
      screen.getByRole('heading', { level: 1, name: 'Informativa sulla privacy' }),
    ).toBeTruthy();
    expect(screen.getByText('28 novembre 2026').parentElement?.textContent).toBe(
      'Versione del 28 novembre 2026',
    );
    expect(within(screen.getByRole('article')).getAllByRole('heading', { level: 2 })).toHaveLength(
      italian.sections.length,
    );
    expect(screen.getByRole('article').getAttribute('lang')).toBe('it');
    expect(document.title).toBe('Informativa sulla privacy · Raccolta');
  });

  it('is reached from the footer links on any page', async () => {
    const { router } = renderRoutes(routes, '/status');
    const footer = screen.getByRole('contentinfo');
    fireEvent.click(within(footer).getByRole('link', { name: 'Privacy Policy' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/privacy');

    fireEvent.click(
      within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Terms of Service' }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/terms');
  });
});
