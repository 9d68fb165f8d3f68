import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { NewPasswordRequiredData } from '@raccolta/contracts';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
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
import { useAuthErrorText } from '../utils/auth-error-text';

export interface SignInFormProps {
  /** The team the page's query pre-selects (teamId or team), sent with the sign-in. */
  queryTeam: string | null;
  onNewPasswordRequired: (challenge: NewPasswordRequiredData) => void;
}

export function SignInForm({ queryTeam, onNewPasswordRequired }: SignInFormProps) {
  const { t } = useTranslation();
  const errorText = useAuthErrorText();
  const { control, handleSubmit } = useForm<SignInPageFormInput, unknown, SignInPageForm>({
    resolver: zodResolver(signInPageFormSchema),
    defaultValues: { identifier: '', password: '', team: '' },
  });
  const identifier = useWatch({ control, name: 'identifier' });
  const mutation = useSignInMutation();
  // A username sign-in (internal team accounts) may need the team; an e-mail never does.
  const showTeam = queryTeam === null && isUsernameIdentifier(identifier);
  const shownError =
    mutation.error !== null && newPasswordChallengeOf(mutation.error) === null
      ? errorText(mutation.error)
      : null;

  const onSubmit = handleSubmit((values) => {
    mutation.mutate(buildSignInRequest(values, queryTeam), {
      onError: (error) => {
        const challenge = newPasswordChallengeOf(error);
        if (challenge !== null) onNewPasswordRequired(challenge);
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
          autoFocus
          required
        />
        <FormTextField
          control={control}
          name="password"
          type="password"
          label={t('auth.fields.password')}
          autoComplete="current-password"
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
          <Link component={RouterLink} to="/auth/forgot" variant="body2">
            {t('auth.signIn.forgot')}
          </Link>
        </Box>
        {shownError !== null && <Alert severity="error">{shownError}</Alert>}
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
          <Link component={RouterLink} to="/auth/signup">
            {t('auth.signIn.signUpLink')}
          </Link>
        </Typography>
      </Stack>
    </Box>
  );
}
