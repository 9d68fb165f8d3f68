import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { BackHomeButton } from '../../../components/back-home-button';
import { useErrorText } from '../../../lib/error-text';
import { AuthCard, AuthOutcome } from '../../../components/auth/auth-card';
import { PendingStatus } from '../../../components/auth/pending-status';
import { useRunOnce } from '../../../lib/use-run-once';
import { canRetry } from '../utils/can-retry';

interface LinkTexts<R> {
  title: string;
  pending: string;
  /** What the link did, from the answer (a confirmation tells a first use from a later one). */
  success: string | ((data: R) => string);
  /** The link lacks a parameter or holds a malformed one (spec §5 "Links"). */
  invalid: string;
}

type LinkMutation<B, R> = UseMutationResult<R, Error, B>;

function LinkAction<B, R>({
  body,
  useLinkMutation,
  texts,
}: {
  body: B;
  useLinkMutation: () => LinkMutation<B, R>;
  texts: LinkTexts<R>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const mutation = useLinkMutation();
  useRunOnce(() => mutation.mutate(body));

  if (mutation.isSuccess) {
    const message =
      typeof texts.success === 'string' ? texts.success : texts.success(mutation.data);
    return <AuthOutcome severity="success" message={message} action={<BackHomeButton />} />;
  }
  if (mutation.isError) {
    return (
      <AuthOutcome
        severity="error"
        message={errorText(mutation.error)}
        action={
          <Stack spacing={1.5}>
            {canRetry(mutation.error) && (
              <Button
                variant="contained"
                size="large"
                fullWidth
                onClick={() => mutation.mutate(body)}
              >
                {t('actions.retry')}
              </Button>
            )}
            <BackHomeButton variant="outlined" />
          </Stack>
        }
      />
    );
  }
  return <PendingStatus text={texts.pending} />;
}

/**
 * The page of an e-mailed newsletter or digest link (`?email&token`, `?team&user&token`): it checks the link's query on the
 * client, runs the call once on load, then shows the outcome and the way home (spec §2).
 */
export function NewsletterLinkPage<B, R>({
  schema,
  useLinkMutation,
  texts,
}: {
  schema: z.ZodType<B>;
  useLinkMutation: () => LinkMutation<B, R>;
  texts: LinkTexts<R>;
}) {
  const [searchParams] = useSearchParams();
  // The schema keeps the keys it names (`email` and `token`; a digest's `team`, `user`, `token`).
  const link = schema.safeParse(Object.fromEntries(searchParams));
  return (
    <AuthCard title={texts.title}>
      {link.success ? (
        <LinkAction body={link.data} useLinkMutation={useLinkMutation} texts={texts} />
      ) : (
        <AuthOutcome
          severity="error"
          message={texts.invalid}
          action={<BackHomeButton variant="outlined" />}
        />
      )}
    </AuthCard>
  );
}
