import { digestUnsubscribeRequestSchema } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useDigestUnsubscribeMutation } from '../api/unsubscribe-digest';
import { NewsletterLinkPage } from './newsletter-link-page';

/**
 * /digests/unsubscribe?team&user&token, the footer link of every digest e-mail: stops that team's
 * digests on load, as the newsletter's link does.
 */
export function DigestUnsubscribePage() {
  const { t } = useTranslation();
  return (
    <NewsletterLinkPage
      schema={digestUnsubscribeRequestSchema}
      useLinkMutation={useDigestUnsubscribeMutation}
      texts={{
        title: t('newsletter.digestUnsubscribe.title'),
        pending: t('newsletter.digestUnsubscribe.pending'),
        success: t('newsletter.digestUnsubscribe.success'),
        invalid: t('validation.invalidUnsubscribe'),
      }}
    />
  );
}
