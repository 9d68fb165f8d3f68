// The e2e identity provider: the same real oidc-provider the API tests use, signing one person in
// without a form. Started by playwright.config.ts as a webServer; the app is configured with it as
// its "google" provider.
import { startTestProvider } from '../../apps/api/test/helpers/oidc-provider.js';
import { SOCIAL_USER } from './social-user.js';

const provider = await startTestProvider({
  port: Number(process.env.E2E_OIDC_PORT),
  clientId: process.env.E2E_OIDC_CLIENT_ID ?? '',
  clientSecret: process.env.E2E_OIDC_CLIENT_SECRET ?? '',
  redirectUris: [`${process.env.E2E_APP_URL ?? ''}/api/oauth2/callback/google`],
  user: SOCIAL_USER,
});

const stop = () => {
  void provider.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
