import { cleanup, fireEvent, render, screen } from '@testing-library/react';
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
import { createTestSessionManager } from '../../../test/session-fixtures';
import { ForgotPasswordPage } from './forgot-password-page';
import { ResetPasswordPage } from './reset-password-page';
import { SignInPage } from './sign-in-page';
import { SignUpPage } from './sign-up-page';
import { VerifyEmailPage } from './verify-email-page';

const fetchMock = vi.fn<typeof fetch>();
const routes = [
  { path: '/auth/verify', element: <VerifyEmailPage /> },
  { path: '/auth/reset', element: <ResetPasswordPage /> },
  { path: '/auth/forgot', element: <ForgotPasswordPage /> },
  { path: '/auth/signup', element: <SignUpPage /> },
];

function input(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { exact: false, selector: 'input' });
}

function type(label: string, value: string) {
  fireEvent.change(input(label), { target: { value } });
}

function submit(name: string) {
  const form = screen.getByRole('button', { name }).closest('form');
  if (!form) throw new Error('no form');
  fireEvent.submit(form);
}

function bodiesSentTo(path: string): unknown[] {
  return sentRequests(fetchMock)
    .filter((request) => request.path === path)
    .map((request) => request.body);
}

describe('pages of e-mailed links and sign-up', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  describe('verify', () => {
    it('verifies once on load, even under StrictMode, then offers sign-in', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({ 'POST /auth/verify-email': () => jsonResponse(200, { verified: true }) }),
      );
      const router = createMemoryRouter(routes, {
        initialEntries: ['/auth/verify?email=ada%40example.com&code=123456&username=ada'],
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
      expect(screen.getByRole('status').textContent).toContain('Verifying');
      expect(
        await screen.findByText('Your e-mail address is verified. You can now sign in.'),
      ).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
        '/auth/signin',
      );
      expect(bodiesSentTo('/auth/verify-email')).toEqual([
        { code: '123456', email: 'ada@example.com', username: 'ada' },
      ]);
    });

    it('asks for a password when the address kept none, and sets it with the code it got', async () => {
      const reset = vi.fn(() => jsonResponse(200, { reset: true }));
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /auth/verify-email': () =>
            jsonResponse(200, { verified: true, resetCode: 'reset-code-1' }),
          'POST /auth/reset-password': reset,
        }),
      );
      renderRoutes(routes, '/auth/verify?email=ada%40example.com&code=123456&username=ada');
      expect(
        await screen.findByText(
          'Your e-mail address is confirmed. More than one sign-up was made with it, so no password was kept: choose yours now.',
        ),
      ).toBeTruthy();
      fireEvent.change(screen.getByLabelText('New password', { exact: false }), {
        target: { value: 'Chosen-pass-1' },
      });
      fireEvent.change(screen.getByLabelText('Confirm password', { exact: false }), {
        target: { value: 'Chosen-pass-1' },
      });
      fireEvent.click(screen.getByRole('button', { name: 'Save the password' }));
      await vi.waitFor(() => expect(reset).toHaveBeenCalled());
      expect(bodiesSentTo('/auth/reset-password')).toEqual([
        { email: 'ada@example.com', code: 'reset-code-1', newPassword: 'Chosen-pass-1' },
      ]);
    });

    it('opens the sign-in form with the verified address filled in and the password to type', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /auth/verify-email': () => jsonResponse(200, { verified: true }),
          'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
        }),
      );
      renderRoutes(
        [...routes, { path: '/auth/signin', element: <SignInPage /> }],
        '/auth/verify?email=ada%40example.com&code=123456&username=ada',
      );
      fireEvent.click(await screen.findByRole('link', { name: 'Sign in' }));
      const identifier = await screen.findByLabelText('E-mail or username', { exact: false });
      expect(identifier).toHaveProperty('value', 'ada@example.com');
      expect(document.activeElement).toBe(input('Password'));
    });

    it.each(['?email=ada%40example.com&code=1', '?code=1&username=ada', ''])(
      'refuses a link without all its parameters (%s)',
      (query) => {
        renderRoutes(routes, `/auth/verify${query}`);
        expect(screen.getByText('This verification link is not valid.')).toBeTruthy();
        expect(fetchMock).not.toHaveBeenCalled();
      },
    );

    it('shows an expired code translated', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /auth/verify-email': () => errorResponse(410, 'expiredVerificationCode'),
        }),
      );
      renderRoutes(routes, '/auth/verify?email=ada%40example.com&code=1&username=ada');
      expect(await screen.findByText('The verification code has expired.')).toBeTruthy();
    });

    it.each([
      ['expiredVerificationCode', 410, '?email=ada%40example.com&code=1&username=ada'],
      ['wrongVerificationCode', 400, '?email=ada%40example.com&code=1&username=ada'],
      ['(no request)', 0, '?email=ada%40example.com&code=1'],
    ] as const)(
      'offers a new link to the address of a failed link: %s',
      async (code, status, query) => {
        fetchMock.mockImplementation(
          fetchRoutes({
            'POST /auth/verify-email': () => errorResponse(status, code),
            'POST /auth/resend-verification': () => jsonResponse(200, {}),
          }),
        );
        renderRoutes(routes, `/auth/verify${query}`);
        fireEvent.click(await screen.findByRole('button', { name: 'Send a new link' }));
        expect(
          await screen.findByText(
            'If ada@example.com has an account waiting for verification, a new link is on its way.',
            { exact: false },
          ),
        ).toBeTruthy();
        expect(bodiesSentTo('/auth/resend-verification')).toEqual([{ email: 'ada@example.com' }]);
        expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
      },
    );

    it('offers no new link when the link names no valid address', () => {
      renderRoutes(routes, '/auth/verify?email=not-an-address&code=1&username=ada');
      expect(screen.getByText('This verification link is not valid.')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Send a new link' })).toBeNull();
    });
  });

  describe('reset', () => {
    it('says a used link was already used, and offers a new one', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({ 'POST /auth/reset-password': () => errorResponse(410, 'usedResetLink') }),
      );
      renderRoutes(routes, '/auth/reset?email=ada%40example.com&code=C0DE');
      type('New password', 'Brand-new-1');
      type('Confirm password', 'Brand-new-1');
      submit('Save the password');
      expect(
        await screen.findByText('This link has already been used or replaced by a newer one.', {
          exact: false,
        }),
      ).toBeTruthy();
      expect(screen.queryByText('The verification code is wrong.')).toBeNull();
      expect(screen.getByRole('link', { name: 'Request a new link' })).toBeTruthy();
    });

    it('refuses a link without e-mail or code', () => {
      renderRoutes(routes, '/auth/reset?email=ada%40example.com');
      expect(screen.getByText('This password reset link is not valid.')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Request a new link' })).toBeTruthy();
    });

    it('sets the new password with the code of the link', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({ 'POST /auth/reset-password': () => jsonResponse(200, {}) }),
      );
      renderRoutes(routes, '/auth/reset?email=ada%40example.com&code=C0DE');
      type('New password', 'Brand-new-1');
      submit('Save the password');
      expect(await screen.findByText('Please confirm the password')).toBeTruthy();

      type('Confirm password', 'Brand-new-1');
      submit('Save the password');
      expect(
        await screen.findByText(
          'Your password has been changed. You can now sign in with the new one.',
        ),
      ).toBeTruthy();
      expect(bodiesSentTo('/auth/reset-password')).toEqual([
        { email: 'ada@example.com', code: 'C0DE', newPassword: 'Brand-new-1' },
      ]);
    });
  });

  describe('forgot', () => {
    it('asks for an e-mail and confirms without saying whether it has an account', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({ 'POST /auth/forgot-password': () => jsonResponse(200, {}) }),
      );
      renderRoutes(routes, '/auth/forgot');
      type('E-mail', 'not-an-address');
      submit('Send the link');
      expect(await screen.findByText('Invalid e-mail address')).toBeTruthy();
      type('E-mail', 'ada@example.com');
      submit('Send the link');
      expect(await screen.findByText(/If an account exists for ada@example.com/)).toBeTruthy();
    });
  });

  describe('sign-up', () => {
    beforeEach(() => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
          'POST /auth/signup': () => jsonResponse(201, { userId: 'u1', username: 'ada' }),
        }),
      );
    });

    it('blocks leading spaces and counts the preferred name up to 30 characters', () => {
      renderRoutes(routes, '/auth/signup');
      type('Preferred name', '   Ada ');
      expect(input('Preferred name').value).toBe('Ada ');
      // Not cut silently at 30: a counter shows near the limit and turns into an error past it.
      type('Preferred name', 'A'.repeat(31));
      expect(input('Preferred name').value).toHaveLength(31);
      expect(screen.getByText('31/30')).toBeTruthy();
      expect(input('Preferred name').getAttribute('aria-invalid')).toBe('true');
    });

    it('links the terms and privacy pages', () => {
      renderRoutes(routes, '/auth/signup');
      expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
        '/terms',
      );
      expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
        '/privacy',
      );
    });

    it('checks the password policy, signs up in the UI language and confirms', async () => {
      renderRoutes(routes, '/auth/signup');
      type('E-mail', 'ada@example.com');
      type('Password', 'password1');
      type('Preferred name', 'Ada');
      submit('Sign up');
      expect(
        await screen.findByText(
          'Password must contain a number, a lowercase letter, an uppercase letter and a special character or underscore.',
        ),
      ).toBeTruthy();

      type('Password', 'Password-1');
      submit('Sign up');
      expect(
        await screen.findByText(/We sent a verification link to ada@example.com/),
      ).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
      expect(bodiesSentTo('/auth/signup')).toEqual([
        { email: 'ada@example.com', password: 'Password-1', nickname: 'Ada', locale: 'en' },
      ]);
    });

    it('names the provider of an earlier sign-up', async () => {
      fetchMock.mockImplementation(
        fetchRoutes({
          'POST /auth/signup': () => errorResponse(409, 'alreadySignedUp', { provider: 'google' }),
        }),
      );
      renderRoutes(routes, '/auth/signup');
      type('E-mail', 'ada@example.com');
      type('Password', 'Password-1');
      type('Preferred name', 'Ada');
      submit('Sign up');
      expect(await screen.findByText('User already signed up with Google.')).toBeTruthy();
    });
  });
});
