import IconButton from '@mui/material/IconButton';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyTooltip } from './lazy-tooltip';

function Control({ onClick = () => undefined }: { onClick?: () => void }) {
  return (
    <LazyTooltip title="Switch to dark mode">
      <IconButton aria-label="Switch to dark mode" onClick={onClick}>
        ☾
      </IconButton>
    </LazyTooltip>
  );
}

describe('LazyTooltip', () => {
  afterEach(cleanup);

  it('renders the bare control until the tooltip is wanted', () => {
    render(<Control />);
    expect(screen.getAllByRole('button')).toHaveLength(1);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('keeps the focus on the control and shows the tooltip once it has arrived', async () => {
    render(<Control />);
    const button = screen.getByRole('button', { name: 'Switch to dark mode' });
    // Focus from the keyboard (a Tab), which is what makes it :focus-visible, whatever pointer
    // events earlier tests in the same document fired.
    fireEvent.keyDown(document.body, { key: 'Tab' });
    act(() => button.focus());
    expect((await screen.findByRole('tooltip')).textContent).toBe('Switch to dark mode');
    const swapped = screen.getByRole('button', { name: 'Switch to dark mode' });
    expect(document.activeElement).toBe(swapped);
    act(() => swapped.blur());
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('gives a control mounted later the tooltip at once, and the clicks reach it', async () => {
    const onClick = vi.fn();
    const first = render(<Control />);
    fireEvent.keyDown(document.body, { key: 'Tab' });
    act(() => screen.getByRole('button').focus());
    await screen.findByRole('tooltip');
    first.unmount();
    render(<Control onClick={onClick} />);
    const button = screen.getByRole('button', { name: 'Switch to dark mode' });
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    fireEvent.mouseOver(button);
    expect(await screen.findByRole('tooltip')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Switch to dark mode' })).toBe(button);
  });
});
