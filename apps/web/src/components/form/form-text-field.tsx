import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { TextInput, type TextInputProps } from './text-input';

export interface FormTextFieldProps<T extends FieldValues> extends Omit<
  TextInputProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'inputRef' | 'errorKey'
> {
  control: Control<T>;
  name: Path<T>;
  /** Rewrites what is typed before the form stores it, e.g. to block leading spaces. */
  transform?: (value: string) => string;
}

/**
 * A TextInput bound to react-hook-form: its error is the validation message key the contracts
 * schema reported for the field.
 */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  transform,
  ...rest
}: FormTextFieldProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const value: unknown = field.value;
  return (
    <TextInput
      {...rest}
      name={field.name}
      value={typeof value === 'string' ? value : ''}
      inputRef={field.ref}
      onBlur={field.onBlur}
      onChange={(text) => field.onChange(transform ? transform(text) : text)}
      errorKey={fieldState.error?.message}
    />
  );
}
