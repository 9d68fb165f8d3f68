import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useResendVerificationMutation } from '../api/resend-verification';
import { useAuthErrorText } from '../utils/auth-error-text';

/**
 * "Send a new link" for an address whose verification link expired or got lost: the way out of
 * the verify page's error and of the notConfirmed sign-in. The answer is the same whether or not
 * the address awaits verification, so the notice is worded as a possibility.
 */
export function ResendVerification({ email }: { email: string }) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const mutation = useResendVerificationMutation();
  if (mutation.isSuccess) {
    return (
      <Alert severity="success" role="status">
        {t('auth.verify.resent', { email })}
      </Alert>
    );
  }
  return (
    <>
      {mutation.error !== null && <Alert severity="error">{errorText(mutation.error)}</Alert>}
      <Button
        variant="outlined"
        fullWidth
        loading={mutation.isPending}
        onClick={() => mutation.mutate({ email })}
      >
        {t('auth.verify.resend')}
      </Button>
    </>
  );
}
