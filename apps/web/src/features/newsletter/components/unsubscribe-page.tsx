import { unsubscribeLinkQuerySchema } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useUnsubscribeMutation } from '../api/unsubscribe';
import { NewsletterLinkPage } from './newsletter-link-page';

/** /unsubscribe?email&token, the link of every newsletter e-mail: unsubscribes on load (spec §2). */
export function UnsubscribePage() {
  const { t } = useTranslation();
  return (
    <NewsletterLinkPage
      schema={unsubscribeLinkQuerySchema}
      useLinkMutation={useUnsubscribeMutation}
      texts={{
        title: t('newsletter.unsubscribe.title'),
        pending: t('newsletter.unsubscribe.pending'),
        success: t('newsletter.unsubscribe.success'),
        invalid: t('validation.invalidUnsubscribe'),
      }}
    />
  );
}
