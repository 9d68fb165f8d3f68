import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useState, type ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { validationText } from '../../lib/validation-text';

export interface FormTextFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  maxLength?: number;
  /** A text area that grows from `minRows` (descriptions). */
  multiline?: boolean;
  minRows?: number;
  size?: 'small' | 'medium';
  helperText?: ReactNode;
  /** Rewrites what is typed before the form stores it, e.g. to block leading spaces. */
  transform?: (value: string) => string;
}

/**
 * A text field bound to react-hook-form whose error is the translated validation message key the
 * contracts schema reported. Password fields get a show/hide button: typing blind on a phone
 * keyboard is how most "passwords do not match" errors happen.
 */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  type = 'text',
  helperText,
  transform,
  readOnly,
  maxLength,
  ...rest
}: FormTextFieldProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const [visible, setVisible] = useState(false);
  const message = fieldState.error?.message;
  const isPassword = type === 'password';
  const value: unknown = field.value;

  return (
    <TextField
      {...rest}
      fullWidth
      name={field.name}
      value={typeof value === 'string' ? value : ''}
      inputRef={field.ref}
      onBlur={field.onBlur}
      onChange={(event) =>
        field.onChange(transform ? transform(event.target.value) : event.target.value)
      }
      type={isPassword && visible ? 'text' : type}
      error={message !== undefined}
      helperText={message !== undefined ? validationText(t, message) : helperText}
      slotProps={{
        htmlInput: { maxLength, readOnly },
        input: isPassword
          ? {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={visible ? t('form.hidePassword') : t('form.showPassword')}
                    onClick={() => setVisible((shown) => !shown)}
                    edge="end"
                  >
                    {visible ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            }
          : undefined,
      }}
    />
  );
}
