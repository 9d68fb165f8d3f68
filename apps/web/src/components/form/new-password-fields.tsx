import type { NewPasswordForm } from '@raccolta/contracts';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from './form-text-field';

/**
 * The chosen password typed twice, as the reset, first-sign-in and invitation forms ask for it:
 * one component so the rules' hint and the autocomplete hints stay the same everywhere.
 */
export function NewPasswordFields({
  control,
  label,
}: {
  control: Control<NewPasswordForm>;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormTextField
        control={control}
        name="password"
        type="password"
        label={label}
        helperText={t('auth.fields.passwordHelp')}
        autoComplete="new-password"
        autoFocus
        required
      />
      <FormTextField
        control={control}
        name="confirmPassword"
        type="password"
        label={t('auth.fields.confirmPassword')}
        autoComplete="new-password"
        required
      />
    </>
  );
}
