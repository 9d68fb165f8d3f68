import { zodResolver } from '@hookform/resolvers/zod';
import { NICKNAME_MAX_LENGTH, nicknameSchema } from '@raccolta/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import '../../i18n';
import { FormTextField } from './form-text-field';

const schema = z.object({ nickname: nicknameSchema });

function NicknameForm({ onValid }: { onValid: (values: z.infer<typeof schema>) => void }) {
  const { control, handleSubmit } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { nickname: '' },
  });
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
      <FormTextField
        control={control}
        name="nickname"
        label="Name"
        helperText="How the others see you."
        maxLength={NICKNAME_MAX_LENGTH}
      />
      <button type="submit">Save</button>
    </form>
  );
}

const input = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' });
const typeText = (value: string) => fireEvent.change(input(), { target: { value } });

describe('a form text field with a maximum length', () => {
  afterEach(cleanup);

  it('never cuts what is typed: a counter shows near the limit and an error past it', async () => {
    const onValid = vi.fn();
    render(<NicknameForm onValid={onValid} />);
    // No native limit: the browser would drop keystrokes and pasted text without a word.
    expect(input().getAttribute('maxlength')).toBeNull();

    typeText('Ada');
    expect(screen.queryByText(/\/30$/)).toBeNull();
    expect(screen.getByText('How the others see you.')).toBeTruthy();

    typeText('a'.repeat(NICKNAME_MAX_LENGTH));
    expect(screen.getByText('30/30')).toBeTruthy();
    expect(screen.getByText('How the others see you.')).toBeTruthy();
    expect(input().getAttribute('aria-invalid')).toBe('false');

    typeText('a'.repeat(NICKNAME_MAX_LENGTH + 1));
    expect(input().value).toHaveLength(NICKNAME_MAX_LENGTH + 1);
    expect(screen.getByText('31/30')).toBeTruthy();
    expect(input().getAttribute('aria-invalid')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is too long (max 30 characters)')).toBeTruthy();
    expect(onValid).not.toHaveBeenCalled();
  });
});
