import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, useState, type ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { validationText } from '../../lib/validation-text';

/** The share of the maximum from which the character counter shows. */
const COUNTER_FROM = 0.8;

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
  /**
   * The schema's maximum. Typing is never cut at it (a cut-off paste goes unnoticed): a counter
   * appears near the limit and turns red past it, and the schema's "too long" message follows.
   */
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
 *
 * Built from the parts of MUI's TextField (an outlined input with its label and helper text)
 * rather than TextField itself, which always brings its Select, menu and popover along: the
 * landing page's form would download them for nothing.
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
  const text = typeof value === 'string' ? value : '';
  const over = maxLength !== undefined && text.length > maxLength;
  const shownHelp = message !== undefined ? validationText(t, message) : helperText;
  const counted =
    maxLength !== undefined && text.length >= Math.floor(maxLength * COUNTER_FROM) ? (
      <Box component="span" sx={{ display: 'flex', gap: 1 }}>
        <Box component="span" sx={{ flex: 1, minWidth: 0 }}>
          {shownHelp}
        </Box>
        <Box component="span" sx={{ flexShrink: 0 }}>
          {t('form.characterCount', { count: text.length, max: maxLength })}
        </Box>
      </Box>
    ) : (
      shownHelp
    );

  const id = useId();
  const helperId = `${id}-helper`;
  const { label, required, disabled, autoComplete, autoFocus, multiline, minRows, size } = rest;
  const invalid = message !== undefined || over;
  // As TextField does: no helper line (and nothing to point at) without a text.
  const hasHelp = Boolean(counted);
  return (
    <FormControl
      fullWidth
      variant="outlined"
      error={invalid}
      required={required}
      disabled={disabled}
      size={size}
    >
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        name={field.name}
        value={text}
        inputRef={field.ref}
        onBlur={field.onBlur}
        onChange={(event) =>
          field.onChange(transform ? transform(event.target.value) : event.target.value)
        }
        type={isPassword && visible ? 'text' : type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        multiline={multiline}
        minRows={minRows}
        readOnly={readOnly}
        aria-describedby={hasHelp ? helperId : undefined}
        endAdornment={
          isPassword ? (
            <InputAdornment position="end">
              <IconButton
                aria-label={visible ? t('form.hidePassword') : t('form.showPassword')}
                onClick={() => setVisible((shown) => !shown)}
                edge="end"
              >
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ) : undefined
        }
      />
      {hasHelp && <FormHelperText id={helperId}>{counted}</FormHelperText>}
    </FormControl>
  );
}
