import Clear from '@mui/icons-material/Clear';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { DatePickerFieldProps } from '@mui/x-date-pickers/DatePicker';
import { usePickerAdapter, usePickerContext, useSplitFieldProps } from '@mui/x-date-pickers/hooks';
import { CalendarIcon } from '@mui/x-date-pickers/icons';
import { createContext, useContext, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format-date';

export interface ReadOnlyDateFieldTexts {
  /** Names the calendar button; "From" alone would not say what the button does. */
  chooseLabel: string;
  clearLabel: string;
  /** Translated error shown under the field; the field is in error state when present. */
  error?: string;
}

/**
 * The picker renders its field slot itself, so the texts that differ between the two bounds reach
 * the field through context rather than through untyped slot props.
 */
export const ReadOnlyDateFieldTextsContext = createContext<ReadOnlyDateFieldTexts | null>(null);

const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * A picker field the user cannot type into: the date comes from the calendar only, which opens
 * on a click of the field, on Enter, Space or Arrow Down in it, or with the calendar button. It
 * writes the date as the lists beside it do (formatDate: "May 3, 2024", "3 mag 2024"), so a
 * screen shows one date format, not the picker's numeric one next to the rows' words. The
 * built-in field hides its clear button when read-only, hence this one, which keeps it reachable
 * by keyboard too.
 */
export function ReadOnlyDateField(props: DatePickerFieldProps) {
  const { forwardedProps } = useSplitFieldProps(props, 'date');
  const {
    value: date,
    label,
    name,
    disabled,
    open: isOpen,
    triggerStatus,
    rootRef,
    rootClassName,
    rootSx,
    triggerRef,
    setOpen,
    clearValue,
  } = usePickerContext();
  const adapter = usePickerAdapter();
  const { i18n } = useTranslation();
  const texts = useContext(ReadOnlyDateFieldTextsContext);
  if (texts === null)
    throw new Error('ReadOnlyDateField needs ReadOnlyDateFieldTextsContext above it');
  const inputRef = useRef<HTMLInputElement>(null);

  const hasDate = date !== null && adapter.isValid(date);
  const canOpen = triggerStatus === 'enabled';

  const open = () => {
    if (canOpen) setOpen(true);
  };
  const handleOpenButton = (event: MouseEvent) => {
    event.stopPropagation();
    open();
  };
  const handleClear = (event: MouseEvent) => {
    // The field opens the calendar on click; clearing must not.
    event.stopPropagation();
    clearValue();
    // The button disappears with the value: keep the keyboard user in the field.
    inputRef.current?.focus();
  };
  const handleKeyDown = (event: KeyboardEvent) => {
    if (!OPENING_KEYS.has(event.key)) return;
    event.preventDefault();
    open();
  };

  return (
    <TextField
      id={forwardedProps.id}
      ref={rootRef}
      inputRef={inputRef}
      className={rootClassName}
      sx={rootSx}
      label={label}
      name={name}
      value={hasDate ? formatDate(adapter.toJsDate(date).getTime(), i18n.language) : ''}
      disabled={disabled}
      focused={isOpen || undefined}
      error={texts.error !== undefined}
      helperText={texts.error}
      slotProps={{
        htmlInput: { onKeyDown: handleKeyDown },
        input: {
          ref: triggerRef,
          readOnly: true,
          onClick: open,
          sx: { cursor: canOpen ? 'pointer' : undefined, '& input': { cursor: 'inherit' } },
          endAdornment: (
            <InputAdornment position="end">
              {hasDate && !disabled && (
                <IconButton size="small" aria-label={texts.clearLabel} onClick={handleClear}>
                  <Clear fontSize="small" />
                </IconButton>
              )}
              <IconButton
                edge="end"
                aria-label={texts.chooseLabel}
                disabled={!canOpen}
                onClick={handleOpenButton}
              >
                <CalendarIcon />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
