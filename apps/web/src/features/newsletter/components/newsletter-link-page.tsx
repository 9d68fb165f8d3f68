import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { BackHomeButton } from '../../../components/back-home-button';
import { useErrorText } from '../../../lib/error-text';
import { AuthCard, AuthOutcome, PendingStatus, useRunOnce } from '../../auth';
import { canRetry } from '../utils/can-retry';

interface LinkTexts {
  title: string;
  pending: string;
  success: string;
  /** The link lacks a parameter or holds a malformed one (spec §5 "Links"). */
  invalid: string;
}

type LinkMutation<B> = UseMutationResult<unknown, Error, B>;

function LinkAction<B>({
  body,
  useLinkMutation,
  texts,
}: {
  body: B;
  useLinkMutation: () => LinkMutation<B>;
  texts: LinkTexts;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const mutation = useLinkMutation();
  useRunOnce(() => mutation.mutate(body));

  if (mutation.isSuccess) {
    return <AuthOutcome severity="success" message={texts.success} action={<BackHomeButton />} />;
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
 * The page of an e-mailed newsletter link (`?email&token`): it checks the link's query on the
 * client, runs the call once on load, then shows the outcome and the way home (spec §2).
 */
export function NewsletterLinkPage<B>({
  schema,
  useLinkMutation,
  texts,
}: {
  schema: z.ZodType<B>;
  useLinkMutation: () => LinkMutation<B>;
  texts: LinkTexts;
}) {
  const [searchParams] = useSearchParams();
  const link = schema.safeParse({
    email: searchParams.get('email') ?? undefined,
    token: searchParams.get('token') ?? undefined,
  });
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
