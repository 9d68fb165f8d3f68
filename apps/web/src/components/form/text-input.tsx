import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { validationText } from '../../lib/validation-text';

/** The share of the maximum from which the character counter shows. */
const COUNTER_FROM = 0.8;

export interface TextInputProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The validation message key a contracts schema reported; shown translated, in red. */
  errorKey?: string | undefined;
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
}

/**
 * A text field whose error is a translated validation message key. Password fields get a
 * show/hide button: typing blind on a phone keyboard is how most "passwords do not match" errors
 * happen. FormTextField binds it to react-hook-form; the landing page's form uses it as it is.
 *
 * Built from the parts of MUI's TextField (an outlined input with its label and helper text)
 * rather than TextField itself, which always brings its Select, menu and popover along: the
 * landing page's form would download them for nothing.
 */
export function TextInput({
  name,
  label,
  value,
  onChange,
  onBlur,
  inputRef,
  errorKey,
  type = 'text',
  autoComplete,
  autoFocus,
  required,
  disabled,
  readOnly,
  maxLength,
  multiline,
  minRows,
  size,
  helperText,
}: TextInputProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const id = useId();
  const helperId = `${id}-helper`;
  const isPassword = type === 'password';
  const over = maxLength !== undefined && value.length > maxLength;
  const shownHelp = errorKey !== undefined ? validationText(t, errorKey) : helperText;
  const counted =
    maxLength !== undefined && value.length >= Math.floor(maxLength * COUNTER_FROM) ? (
      <Box component="span" sx={{ display: 'flex', gap: 1 }}>
        <Box component="span" sx={{ flex: 1, minWidth: 0 }}>
          {shownHelp}
        </Box>
        <Box component="span" sx={{ flexShrink: 0 }}>
          {t('form.characterCount', { count: value.length, max: maxLength })}
        </Box>
      </Box>
    ) : (
      shownHelp
    );
  // As TextField does: no helper line (and nothing to point at) without a text.
  const hasHelp = Boolean(counted);
  return (
    <FormControl
      fullWidth
      variant="outlined"
      error={errorKey !== undefined || over}
      required={required}
      disabled={disabled}
      size={size}
    >
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        name={name}
        value={value}
        inputRef={inputRef}
        onBlur={onBlur}
        onChange={(event) => onChange(event.target.value)}
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
