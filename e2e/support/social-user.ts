/** The person the e2e identity provider signs in (e2e/support/oidc-provider.ts). */
export const SOCIAL_USER = {
  sub: 'e2e-social-user',
  email: 'sofia.social@example.test',
  email_verified: true,
  name: 'Sofia Social',
  given_name: 'Sofia',
  family_name: 'Social',
};
