import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { useDocumentTitle } from './use-document-title';

describe('useDocumentTitle', () => {
  beforeEach(() => {
    document.title = 'Raccolta';
  });
  afterEach(async () => {
    window.history.replaceState(null, '', '/');
    await i18n.changeLanguage('en');
  });

  it('names the page and the app, and puts the previous title back', () => {
    const { unmount, rerender } = renderHook(({ page }) => useDocumentTitle(page), {
      initialProps: { page: 'Sign in' },
    });
    expect(document.title).toBe('Sign in · Raccolta');
    rerender({ page: 'Profile' });
    expect(document.title).toBe('Profile · Raccolta');
    unmount();
    expect(document.title).toBe('Raccolta');
  });

  it('leaves the title alone while the name is not known', () => {
    renderHook(() => useDocumentTitle(null));
    expect(document.title).toBe('Raccolta');
  });

  it('names the upload app on its pages, in Italian too', async () => {
    window.history.replaceState(null, '', '/upload/teams/choir');
    renderHook(() => useDocumentTitle('Choir'));
    expect(document.title).toBe('Choir · Raccolta upload');
    await i18n.changeLanguage('it');
    window.history.replaceState(null, '', '/upload');
    renderHook(() => useDocumentTitle('Scegli un team'));
    expect(document.title).toBe('Scegli un team · Caricamento Raccolta');
  });
});
