import { confirmSubscriptionLinkQuerySchema } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { useConfirmSubscriptionMutation } from '../api/confirm-subscription';
import { NewsletterLinkPage } from './newsletter-link-page';

/** /newsletter/confirm?email&token, the link of the confirmation e-mail: confirms on load. */
export function ConfirmSubscriptionPage() {
  const { t } = useTranslation();
  return (
    <NewsletterLinkPage
      schema={confirmSubscriptionLinkQuerySchema}
      useLinkMutation={useConfirmSubscriptionMutation}
      texts={{
        title: t('newsletter.confirm.title'),
        pending: t('newsletter.confirm.pending'),
        success: ({ status }) =>
          status === 'alreadyConfirmed'
            ? t('newsletter.confirm.alreadyConfirmed')
            : t('newsletter.confirm.success'),
        invalid: t('validation.invalidSubscriptionConfirmation'),
      }}
    />
  );
}
