import { isValidationMessageKey } from '@raccolta/contracts';
import type { TFunction } from 'i18next';

/**
 * The translated text of a form field error. Contracts schemas put a validation message key in
 * every issue; anything else (a schema that forgot one) reads as the generic invalidInput text.
 */
export function validationText(t: TFunction, message: string | undefined): string {
  return isValidationMessageKey(message)
    ? t(`validation.${message}`)
    : t('validation.invalidInput');
}
