import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { NewPasswordRequiredData, SecondFactorRequiredData } from '@raccolta/contracts';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FormTextField } from '../../../components/form/form-text-field';
import {
  buildSignInRequest,
  isUsernameIdentifier,
  newPasswordChallengeOf,
  signInPageFormSchema,
  useSignInMutation,
  type SignInPageForm,
  type SignInPageFormInput,
} from '../api/sign-in';
import { secondFactorChallengeOf } from '../api/second-factor';
import { isApiError } from '../../../lib/api-client';
import { useAuthErrorText } from '../utils/auth-error-text';
import { markFromUploadApp } from '../utils/upload-app-origin';
import { ResendVerification } from './resend-verification';

export interface SignInFormProps {
  /** The team the page's query pre-selects (teamId or team), sent with the sign-in. */
  queryTeam: string | null;
  onNewPasswordRequired: (challenge: NewPasswordRequiredData) => void;
  /** The account has a second factor: the page shows the second step. */
  onSecondFactorRequired: (challenge: SecondFactorRequiredData) => void;
  /** What the identifier starts with: the address just verified. The password gets the focus. */
  initialIdentifier?: string;
  /** Inside the upload app: its forgot-password and sign-up links lead back to it. */
  uploadApp?: boolean;
}

export function SignInForm({
  queryTeam,
  onNewPasswordRequired,
  onSecondFactorRequired,
  uploadApp = false,
  initialIdentifier = '',
}: SignInFormProps) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const [, setSearchParams] = useSearchParams();
  const { control, handleSubmit, setFocus } = useForm<SignInPageFormInput, unknown, SignInPageForm>(
    {
      resolver: zodResolver(signInPageFormSchema),
      // The link's team is shown, so a wrong one can be corrected.
      defaultValues: { identifier: initialIdentifier, password: '', team: queryTeam ?? '' },
    },
  );
  const identifier = useWatch({ control, name: 'identifier' });
  const typedTeam = useWatch({ control, name: 'team' }).trim();
  useEffect(() => {
    // A corrected team code replaces the link's in the query, so the sign-in lands on that team.
    if (queryTeam === null || typedTeam === '' || typedTeam === queryTeam) return;
    if (!isUsernameIdentifier(identifier)) return;
    setSearchParams(
      (params) => {
        params.delete('teamId');
        params.set('team', typedTeam);
        return params;
      },
      { replace: true },
    );
  }, [identifier, queryTeam, setSearchParams, typedTeam]);
  const mutation = useSignInMutation();
  // A username sign-in (internal team accounts) needs the team; an e-mail never does.
  const showTeam = isUsernameIdentifier(identifier);
  const shownError =
    mutation.error !== null &&
    newPasswordChallengeOf(mutation.error) === null &&
    secondFactorChallengeOf(mutation.error) === null
      ? errorText(mutation.error)
      : null;
  const errorCode = isApiError(mutation.error) ? mutation.error.errorCode : null;
  const unconfirmedEmail =
    errorCode === 'notConfirmed' && mutation.variables?.email !== undefined
      ? mutation.variables.email
      : null;

  const onSubmit = handleSubmit((values) => {
    const request = buildSignInRequest(values, queryTeam);
    mutation.mutate(request, {
      onError: (error) => {
        const challenge = newPasswordChallengeOf(error);
        if (challenge !== null) onNewPasswordRequired(challenge);
        const secondFactor = secondFactorChallengeOf(error);
        if (secondFactor !== null) onSecondFactorRequired(secondFactor);
        if (
          isApiError(error) &&
          (error.errorCode === 'teamRequired' || error.errorCode === 'teamNotFound')
        ) {
          setFocus('team');
        }
      },
    });
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack spacing={2}>
        <FormTextField
          control={control}
          name="identifier"
          label={t('auth.fields.identifier')}
          autoComplete="username"
          autoFocus={initialIdentifier === ''}
          required
        />
        <FormTextField
          control={control}
          name="password"
          type="password"
          label={t('auth.fields.password')}
          autoComplete="current-password"
          autoFocus={initialIdentifier !== ''}
          required
        />
        <Collapse in={showTeam} unmountOnExit>
          <FormTextField
            control={control}
            name="team"
            label={t('auth.fields.team')}
            helperText={t('auth.fields.teamHelp')}
            autoComplete="organization"
          />
        </Collapse>
        <Box sx={{ textAlign: 'right' }}>
          <Link
            component={RouterLink}
            to={markFromUploadApp('/auth/forgot', uploadApp)}
            variant="body2"
          >
            {t('auth.signIn.forgot')}
          </Link>
          {uploadApp && (
            // Internal contributors have no e-mail to receive a reset link: a manager sets one.
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {t('auth.signIn.forgotInternal')}
            </Typography>
          )}
        </Box>
        {shownError !== null && <Alert severity="error">{shownError}</Alert>}
        {unconfirmedEmail !== null && <ResendVerification email={unconfirmedEmail} />}
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={mutation.isPending}
        >
          {t('auth.signIn.submit')}
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          {t('auth.signIn.noAccount')}{' '}
          <Link component={RouterLink} to={markFromUploadApp('/auth/signup', uploadApp)}>
            {t('auth.signIn.signUpLink')}
          </Link>
        </Typography>
      </Stack>
    </Box>
  );
}
