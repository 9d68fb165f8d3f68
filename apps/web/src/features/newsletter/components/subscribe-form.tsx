import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  LEGAL_VERSIONS,
  NEWSLETTER_MIN_AGE,
  type SubscribeForm as SubscribeFormValues,
} from '@raccolta/contracts';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FormTextField } from '../../../components/form/form-text-field';
import { useErrorText } from '../../../lib/error-text';
import { uiLocale } from '../../../lib/locale';
import { validationText } from '../../../lib/validation-text';
import { useSubscribeMutation } from '../api/subscribe';
import { canRetry } from '../utils/can-retry';

function LegalLink({ to, children }: { to: string; children?: ReactNode }) {
  // A new tab, so reading the terms does not throw away what was typed.
  return (
    <Link component={RouterLink} to={to} target="_blank" rel="noopener">
      {children}
    </Link>
  );
}

/**
 * The contracts' subscribeFormSchema, downloaded with Zod when the form is first checked (its
 * first submit): the landing page shows without either.
 */
const subscribeResolver: Resolver<SubscribeFormValues> = async (values, context, options) => {
  const [{ zodResolver }, { subscribeFormSchema }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('../utils/newsletter-schemas'),
  ]);
  return zodResolver(subscribeFormSchema)(values, context, options);
};

/**
 * Takes the place of the form. It gets the focus the vanished submit button had, so keyboard and
 * screen-reader users land on it.
 */
function SubscribeSuccess({ email }: { email: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Alert ref={ref} tabIndex={-1} severity="success" role="status" sx={{ textAlign: 'start' }}>
      {t('newsletter.subscribe.success', { email })}
    </Alert>
  );
}

/**
 * The landing page's newsletter form (spec §2, §5): an e-mail address and the acceptance of the
 * terms and privacy policy by someone at least NEWSLETTER_MIN_AGE; it sends the versions in force.
 * After success a message replaces it, asking to confirm from the mailbox (double opt-in).
 */
export function SubscribeForm() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const headingId = useId();
  const termsErrorId = useId();
  const { control, handleSubmit } = useForm<SubscribeFormValues>({
    resolver: subscribeResolver,
    // No `terms`: the checkbox starts unticked, as acceptance must be the visitor's own act.
    defaultValues: { email: '' },
  });
  const mutation = useSubscribeMutation();
  const onSubmit = handleSubmit(({ email }) =>
    mutation.mutate({
      email,
      termsVersion: LEGAL_VERSIONS.terms,
      privacyVersion: LEGAL_VERSIONS.privacy,
      locale: uiLocale(i18n.language),
    }),
  );
  const retry = () => {
    if (mutation.variables) mutation.mutate(mutation.variables);
  };

  if (mutation.isSuccess) return <SubscribeSuccess email={mutation.variables.email} />;

  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => void onSubmit(event)}
    >
      <Stack spacing={2}>
        <Box>
          <Typography id={headingId} variant="h6" component="h2">
            {t('newsletter.subscribe.title')}
          </Typography>
          <Typography color="text.secondary">{t('newsletter.subscribe.text')}</Typography>
        </Box>
        <FormTextField
          control={control}
          name="email"
          type="email"
          label={t('newsletter.subscribe.email')}
          autoComplete="email"
          required
        />
        <Controller
          control={control}
          name="terms"
          render={({ field, fieldState }) => (
            <Box>
              <FormControlLabel
                sx={{ alignItems: 'flex-start', mr: 0 }}
                label={
                  <Typography variant="body2" sx={{ pt: 1.125 }}>
                    <Trans
                      i18nKey="newsletter.subscribe.terms"
                      values={{ age: NEWSLETTER_MIN_AGE }}
                      components={{
                        terms: <LegalLink to="/terms" />,
                        privacy: <LegalLink to="/privacy" />,
                      }}
                    />
                  </Typography>
                }
                control={
                  <Checkbox
                    name={field.name}
                    // Unticked until ticked: the schema's only valid value is true.
                    checked={(field.value as boolean | undefined) === true}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                    slotProps={{
                      input: {
                        ref: field.ref,
                        'aria-invalid': fieldState.error !== undefined,
                        'aria-describedby': fieldState.error ? termsErrorId : undefined,
                      },
                    }}
                  />
                }
              />
              {fieldState.error && (
                <FormHelperText id={termsErrorId} error sx={{ mt: 0, ml: 4 }}>
                  {validationText(t, fieldState.error.message)}
                </FormHelperText>
              )}
            </Box>
          )}
        />
        {mutation.error !== null && (
          <Alert
            severity="error"
            action={
              canRetry(mutation.error) ? (
                <Button color="inherit" size="small" onClick={retry}>
                  {t('actions.retry')}
                </Button>
              ) : undefined
            }
          >
            {errorText(mutation.error)}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" loading={mutation.isPending}>
          {t('newsletter.subscribe.submit')}
        </Button>
      </Stack>
    </Box>
  );
}
