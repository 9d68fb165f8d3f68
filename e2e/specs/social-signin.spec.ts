import { expect, test } from '../support/servers.js';
import { SOCIAL_USER } from '../support/social-user.js';

// The provider is the real oidc-provider started by playwright.config.ts; it signs SOCIAL_USER in
// without a form, so the whole round trip runs: app → API → provider → API → /auth/callback.
test.describe('social sign-in', () => {
  test('the Google button signs a new person in and lands on the team list', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });

    await page.goto('/auth/signin');
    await page.getByRole('button', { name: /Google/ }).click();

    await expect(page).toHaveURL(/\/teams$/, { timeout: 15_000 });
    const callback = visited
      .map((url) => new URL(url))
      .find((url) => url.pathname === '/auth/callback');
    expect(callback?.searchParams.get('code'), visited.join('\n')).toBeTruthy();
    expect(callback?.searchParams.get('error')).toBeNull();

    const stored = await page.evaluate(() => ({
      identityProvider: localStorage.getItem('IdentityProvider'),
      idToken: localStorage.getItem('IDToken'),
    }));
    expect(stored.identityProvider).toBe('true');
    const payload = stored.idToken?.split('.')[1] ?? '';
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      email?: string;
      email_verified?: boolean;
    };
    expect(claims).toMatchObject({ email: SOCIAL_USER.email, email_verified: true });
    expect(errors).toEqual([]);
  });
});
