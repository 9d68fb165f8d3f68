import type { AlertProps } from '@mui/material/Alert';
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
import { useCallback, useId, useRef, useState, type SyntheticEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { RichText } from '../../../components/rich-text';
import { preloadable } from '../../../lib/preloadable';
import { TextInput } from '../../../components/form/text-input';
import { ApiError, NO_RESPONSE_STATUS } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { uiLocale } from '../../../lib/locale';
import { validationText } from '../../../lib/validation-text';
import { useSubscribe } from '../api/subscribe';
import { canRetry } from '../utils/can-retry';

function LegalLink({ to, children }: { to: string; children?: ReactNode }) {
  // A new tab, so reading the terms does not throw away what was typed.
  return (
    <Link component={RouterLink} to={to} target="_blank" rel="noopener">
      {children}
    </Link>
  );
}

/** Shown only after a submit: its module comes then, not with the landing page. */
const { Component: Alert, preload: preloadAlert } = preloadable<AlertProps>(
  () => import('@mui/material/Alert'),
);

type FieldErrors = Partial<Record<keyof SubscribeFormValues, string>>;

/**
 * Checks the form with the contracts' subscribeFormSchema, which arrives with Zod at the form's
 * first check (its first submit), not with the landing page: the values to send, or the message
 * key of each invalid field.
 */
async function checkSubscribeForm(values: {
  email: string;
  terms: boolean;
}): Promise<{ data: SubscribeFormValues } | { errors: FieldErrors }> {
  const { subscribeFormSchema } = await import('../utils/newsletter-schemas');
  const parsed = subscribeFormSchema.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'terms') && errors[field] === undefined) {
      errors[field] = issue.message;
    }
  }
  return { errors };
}

/**
 * Takes the place of the form. It gets the focus the vanished submit button had, so keyboard and
 * screen-reader users land on it.
 */
function SubscribeSuccess({ email }: { email: string }) {
  const { t } = useTranslation();
  // A callback ref: the message may draw a moment after this mounts (its module arriving).
  const focus = useCallback((node: HTMLDivElement | null) => node?.focus(), []);
  return (
    <Alert ref={focus} tabIndex={-1} severity="success" role="status" sx={{ textAlign: 'start' }}>
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
  const [email, setEmail] = useState('');
  // Unticked until ticked: acceptance must be the visitor's own act.
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  // After the first submit, every change is checked again, so an error goes as soon as it is fixed.
  const [submitted, setSubmitted] = useState(false);
  const [checkError, setCheckError] = useState<ApiError | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const termsRef = useRef<HTMLInputElement>(null);
  const mutation = useSubscribe();

  const recheck = (values: { email: string; terms: boolean }) => {
    if (!submitted) return;
    void checkSubscribeForm(values).then(
      (result) => setErrors('errors' in result ? result.errors : {}),
      () => undefined,
    );
  };

  const send = () => {
    // Whatever the answer, it is shown in an Alert: its module is asked for now.
    void preloadAlert();
    setSubmitted(true);
    setCheckError(null);
    checkSubscribeForm({ email, terms }).then(
      (result) => {
        if ('errors' in result) {
          setErrors(result.errors);
          // As a keyboard user expects: the first field to fix gets the focus.
          (result.errors.email !== undefined ? emailRef : termsRef).current?.focus();
          return;
        }
        setErrors({});
        mutation.mutate({
          email: result.data.email,
          termsVersion: LEGAL_VERSIONS.terms,
          privacyVersion: LEGAL_VERSIONS.privacy,
          locale: uiLocale(i18n.language),
        });
      },
      // The schema's chunk did not arrive: said as for a request that got no answer.
      (error: unknown) => {
        mutation.reset();
        setCheckError(
          new ApiError(NO_RESPONSE_STATUS, 'noConnection', undefined, { cause: error }),
        );
      },
    );
  };
  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    send();
  };
  const retry = () => {
    if (checkError !== null || !mutation.variables) send();
    else mutation.mutate(mutation.variables);
  };
  const failure = checkError ?? mutation.error;

  if (mutation.isSuccess && mutation.variables !== undefined)
    return <SubscribeSuccess email={mutation.variables.email} />;

  return (
    <Box component="form" noValidate aria-labelledby={headingId} onSubmit={onSubmit}>
      <Stack spacing={{ xs: 1.5, sm: 2 }}>
        <Box>
          <Typography id={headingId} variant="h6" component="h2">
            {t('newsletter.subscribe.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('newsletter.subscribe.text')}
          </Typography>
        </Box>
        <TextInput
          name="email"
          type="email"
          label={t('newsletter.subscribe.email')}
          autoComplete="email"
          required
          value={email}
          inputRef={emailRef}
          errorKey={errors.email}
          onChange={(value) => {
            setEmail(value);
            recheck({ email: value, terms });
          }}
        />
        <Box>
          <FormControlLabel
            sx={{ alignItems: 'flex-start', mr: 0 }}
            label={
              <Typography variant="body2" sx={{ pt: 1.125 }}>
                <RichText
                  text={t('newsletter.subscribe.terms', { age: NEWSLETTER_MIN_AGE })}
                  components={{
                    terms: <LegalLink to="/terms" />,
                    privacy: <LegalLink to="/privacy" />,
                  }}
                />
              </Typography>
            }
            control={
              <Checkbox
                name="terms"
                checked={terms}
                onChange={(event) => {
                  setTerms(event.target.checked);
                  recheck({ email, terms: event.target.checked });
                }}
                slotProps={{
                  input: {
                    ref: termsRef,
                    'aria-invalid': errors.terms !== undefined,
                    'aria-describedby': errors.terms !== undefined ? termsErrorId : undefined,
                  },
                }}
              />
            }
          />
          {errors.terms !== undefined && (
            <FormHelperText id={termsErrorId} error sx={{ mt: 0, ml: 4 }}>
              {validationText(t, errors.terms)}
            </FormHelperText>
          )}
        </Box>
        {failure !== null && (
          <Alert
            severity="error"
            action={
              canRetry(failure) ? (
                <Button color="inherit" size="small" onClick={retry}>
                  {t('actions.retry')}
                </Button>
              ) : undefined
            }
          >
            {errorText(failure)}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" loading={mutation.isPending}>
          {t('newsletter.subscribe.submit')}
        </Button>
      </Stack>
    </Box>
  );
}
