import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AppProviders,
  createTestQueryClient,
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { i18n } from '../../../i18n';
import { createTestSessionManager } from '../../../test/session-fixtures';
import { LandingPage } from '../../landing/components/landing-page';
import { ConfirmSubscriptionPage } from './confirm-subscription-page';
import { SubscribeForm } from './subscribe-form';
import { UnsubscribePage } from './unsubscribe-page';

const fetchMock = vi.fn<typeof fetch>();
const routes = [
  { path: '/', element: <LandingPage newsletter={<SubscribeForm />} /> },
  { path: '/unsubscribe', element: <UnsubscribePage /> },
  { path: '/newsletter/confirm', element: <ConfirmSubscriptionPage /> },
];

const bodiesSentTo = (path: string) =>
  sentRequests(fetchMock)
    .filter((request) => request.path === path)
    .map((request) => request.body);

const emailField = () => screen.getByRole('textbox', { name: /E-mail/ });
const termsBox = () => screen.getByRole('checkbox', { name: /I accept the Terms of Service/ });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));

describe('newsletter', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  describe('the subscribe form of the landing page', () => {
    it('asks for the terms and a valid address before sending anything', async () => {
      renderRoutes(routes, '/');
      expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
      expect(termsBox().closest('label')?.textContent).toContain('at least 16 years old');
      const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
      expect(links).toEqual(expect.arrayContaining(['/terms', '/privacy']));

      fireEvent.change(emailField(), { target: { value: 'zoe@' } });
      submit();
      expect(await screen.findByText('Invalid e-mail address')).toBeTruthy();
      expect(screen.getByText('You must accept the terms to subscribe')).toBeTruthy();
      expect(termsBox().getAttribute('aria-invalid')).toBe('true');
      // The page asks for its configuration; nothing is sent to the subscriptions endpoint.
      expect(sentRequests(fetchMock).map((request) => request.path)).not.toContain(
        '/subscriptions',
      );
    });

    it('focuses the first field to fix, and takes each error away once it is fixed', async () => {
      renderRoutes(routes, '/');
      submit();
      expect(await screen.findByText('E-mail required')).toBeTruthy();
      expect(document.activeElement).toBe(emailField());
      fireEvent.change(emailField(), { target: { value: 'zoe@example.com' } });
      await waitFor(() => expect(screen.queryByText('E-mail required')).toBeNull());
      expect(screen.getByText('You must accept the terms to subscribe')).toBeTruthy();
      fireEvent.click(termsBox());
      await waitFor(() =>
        expect(screen.queryByText('You must accept the terms to subscribe')).toBeNull(),
      );
      expect(termsBox().getAttribute('aria-invalid')).toBe('false');
    });

    it('sends the address with the versions in force and shows the success in place of the form', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({ 'POST /subscriptions': () => jsonResponse(202, { status: 'pending' }) }),
      );
      renderRoutes(routes, '/');
      fireEvent.change(emailField(), { target: { value: ' zoe@example.com ' } });
      fireEvent.click(termsBox());
      submit();
      const success = await screen.findByText(/we sent a confirmation link to zoe@example.com/);
      expect(bodiesSentTo('/subscriptions')).toEqual([
        {
          email: 'zoe@example.com',
          termsVersion: '2025-03-05',
          privacyVersion: '2026-11-28',
          locale: 'en',
        },
      ]);
      expect(screen.queryByRole('textbox')).toBeNull();
      // The focus the vanished button had goes to the message.
      await waitFor(() => expect(document.activeElement).toBe(success.closest('[role="status"]')));
    });

    it('shows a refusal translated, and offers a retry only when asking again can help', async () => {
      let answer = () => errorResponse(409, 'alreadySubscribed');
      fetchMock.mockImplementation(fetchRoutes({ 'POST /subscriptions': () => answer() }));
      renderRoutes(routes, '/');
      fireEvent.change(emailField(), { target: { value: 'zoe@example.com' } });
      fireEvent.click(termsBox());
      submit();
      expect(await screen.findByText('E-mail already registered')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();

      fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
      submit();
      expect(await screen.findByText('Unable to connect to the server')).toBeTruthy();
      answer = () => jsonResponse(202, { status: 'pending' });
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByText(/we sent a confirmation link/)).toBeTruthy();
      expect(bodiesSentTo('/subscriptions')).toHaveLength(3);
    });
  });

  describe('the unsubscribe page', () => {
    it('unsubscribes once on load, even under StrictMode, then offers the way home', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /subscriptions/unsubscribe': () => jsonResponse(200, { status: 'unsubscribed' }),
        }),
      );
      const router = createMemoryRouter(routes, {
        initialEntries: ['/unsubscribe?email=zoe%40example.com&token=abc'],
      });
      render(
        <StrictMode>
          <AppProviders
            manager={createTestSessionManager().manager}
            queryClient={createTestQueryClient()}
          >
            <RouterProvider router={router} />
          </AppProviders>
        </StrictMode>,
      );
      expect(screen.getByRole('status').textContent).toContain('Unsubscribing');
      expect(
        await screen.findByText(/You won’t receive the Raccolta newsletter any more/),
      ).toBeTruthy();
      expect(bodiesSentTo('/subscriptions/unsubscribe')).toEqual([
        { email: 'zoe@example.com', token: 'abc' },
      ]);
      expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    });

    it('refuses a link without its token on the client', () => {
      renderRoutes(routes, '/unsubscribe?email=zoe%40example.com');
      expect(screen.getByText('This unsubscribe link is not valid.')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Back to home' })).toBeTruthy();
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('says when the subscription is not found, with no retry', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /subscriptions/unsubscribe': () => errorResponse(404, 'cannotUnsubscribe'),
        }),
      );
      renderRoutes(routes, '/unsubscribe?email=zoe%40example.com&token=abc');
      expect(await screen.findByText('Subscription not found')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    });

    it('retries after a server failure', async () => {
      let answer = () => errorResponse(500, 'generic');
      fetchMock.mockImplementation(
        fetchRoutes({ 'POST /subscriptions/unsubscribe': () => answer() }),
      );
      renderRoutes(routes, '/unsubscribe?email=zoe%40example.com&token=abc');
      expect(await screen.findByText('An error occurred')).toBeTruthy();
      answer = () => jsonResponse(200, { status: 'unsubscribed' });
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByText(/any more/)).toBeTruthy();
      expect(bodiesSentTo('/subscriptions/unsubscribe')).toHaveLength(2);
    });
  });

  describe('the confirmation page', () => {
    it('confirms on load', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /subscriptions/confirm': () => jsonResponse(200, { status: 'confirmed' }),
        }),
      );
      renderRoutes(routes, '/newsletter/confirm?email=zoe%40example.com&token=abc');
      expect(await screen.findByText(/Your subscription is confirmed/)).toBeTruthy();
      expect(bodiesSentTo('/subscriptions/confirm')).toEqual([
        { email: 'zoe@example.com', token: 'abc' },
      ]);
    });

    it('tells a confirmed subscriber who opens a link again that the address is already confirmed', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /subscriptions/confirm': () => jsonResponse(200, { status: 'alreadyConfirmed' }),
        }),
      );
      renderRoutes(routes, '/newsletter/confirm?email=zoe%40example.com&token=abc');
      expect(await screen.findByText(/This address is already confirmed/)).toBeTruthy();
      expect(screen.queryByText(/not valid/)).toBeNull();
      cleanup();
      await i18n.changeLanguage('it');
      renderRoutes(routes, '/newsletter/confirm?email=zoe%40example.com&token=abc');
      expect(await screen.findByText(/Questo indirizzo è già confermato/)).toBeTruthy();
      await i18n.changeLanguage('en');
    });

    it('explains an expired link', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /subscriptions/confirm': () =>
            errorResponse(400, 'invalidSubscriptionConfirmation'),
        }),
      );
      renderRoutes(routes, '/newsletter/confirm?email=zoe%40example.com&token=abc');
      expect(await screen.findByText(/not valid or has expired/)).toBeTruthy();
    });

    it('refuses a link with a malformed address on the client', () => {
      renderRoutes(routes, '/newsletter/confirm?email=zoe&token=abc');
      expect(screen.getByText(/This confirmation link is not valid/)).toBeTruthy();
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });
});
