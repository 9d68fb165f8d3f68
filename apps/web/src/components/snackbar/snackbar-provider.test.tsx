import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { SNACKBAR_DURATION_MS, useSnackbar, type SnackbarOptions } from './snackbar-context';
import { SnackbarProvider } from './snackbar-provider';

function Trigger({ text, options }: { text: string; options?: SnackbarOptions }) {
  const { show } = useSnackbar();
  return (
    <button type="button" onClick={() => show(text, 'error', options)}>
      {`show ${text}`}
    </button>
  );
}

// Two steps: the first fires the auto-hide timer, the second lets the exit transition finish.
function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
  act(() => {
    vi.advanceTimersByTime(1000);
  });
}

function renderWithProvider(ui: React.ReactNode) {
  return render(<SnackbarProvider>{ui}</SnackbarProvider>);
}

describe('SnackbarProvider', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('loads the bar with the first message when no message has been shown yet', async () => {
    // A fresh copy of the modules, as on a page that has shown no message yet.
    vi.resetModules();
    const fresh = await import('./snackbar-provider');
    const context = await import('./snackbar-context');
    function FreshTrigger() {
      const { show } = context.useSnackbar();
      return (
        <button type="button" onClick={() => show('First news', 'success')}>
          show
        </button>
      );
    }
    render(
      <fresh.SnackbarProvider>
        <FreshTrigger />
      </fresh.SnackbarProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'show' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('First news');
    expect(alert.className).toContain('Success');
  });

  it('shows a message with its severity and hides it after the default 4 s', () => {
    vi.useFakeTimers();
    renderWithProvider(<Trigger text="Saved" />);
    fireEvent.click(screen.getByRole('button', { name: 'show Saved' }));

    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Saved');
    expect(alert.className).toContain('Error');

    act(() => {
      vi.advanceTimersByTime(SNACKBAR_DURATION_MS - 100);
    });
    expect(screen.queryByRole('alert')).not.toBeNull();
    advance(100);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('replaces the shown message and honours a custom duration', () => {
    vi.useFakeTimers();
    renderWithProvider(
      <>
        <Trigger text="First" />
        <Trigger text="Second" options={{ autoHideDuration: 10_000 }} />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'show First' }));
    fireEvent.click(screen.getByRole('button', { name: 'show Second' }));
    advance(0);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Second']);

    advance(SNACKBAR_DURATION_MS);
    expect(screen.queryByRole('alert')).not.toBeNull();
    advance(10_000 - SNACKBAR_DURATION_MS);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sits at the bottom centre and closes with its translated close button', () => {
    vi.useFakeTimers();
    renderWithProvider(<Trigger text="Closable" />);
    fireEvent.click(screen.getByRole('button', { name: 'show Closable' }));
    const snackbar = screen.getByRole('alert').closest('.MuiSnackbar-root');
    expect(snackbar?.className).toContain('MuiSnackbar-anchorOriginBottomCenter');

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    advance(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('brings back a message kept until closed once a newer one has gone', () => {
    vi.useFakeTimers();
    const onClick = vi.fn();
    renderWithProvider(
      <>
        <Trigger
          text="Ready"
          options={{ autoHideDuration: null, key: 'd1', action: { label: 'Get it', onClick } }}
        />
        <Trigger text="Also ready" options={{ autoHideDuration: null, key: 'd2' }} />
        <Trigger text="Saved" />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'show Ready' }));
    fireEvent.click(screen.getByRole('button', { name: 'show Also ready' }));
    fireEvent.click(screen.getByRole('button', { name: 'show Saved' }));
    advance(0);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Saved']);

    // The short message hides by itself, then the covered ones return, newest first.
    advance(SNACKBAR_DURATION_MS);
    expect(screen.getByRole('alert').textContent).toContain('Also ready');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    advance(0);
    expect(screen.getByRole('alert').textContent).toContain('Ready');

    // The action closes the message and runs; nothing is left to come back.
    fireEvent.click(screen.getByRole('button', { name: 'Get it' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    advance(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('replaces a message of the same key, shown or waiting, instead of queueing it twice', () => {
    vi.useFakeTimers();
    renderWithProvider(
      <>
        <Trigger text="Ready" options={{ autoHideDuration: null, key: 'd1' }} />
        <Trigger text="Other" options={{ autoHideDuration: null, key: 'd2' }} />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'show Ready' }));
    fireEvent.click(screen.getByRole('button', { name: 'show Other' }));
    fireEvent.click(screen.getByRole('button', { name: 'show Ready' }));
    advance(0);
    expect(screen.getByRole('alert').textContent).toContain('Ready');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    advance(0);
    expect(screen.getByRole('alert').textContent).toContain('Other');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    advance(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses to work outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Trigger text="x" />)).toThrow(/SnackbarProvider/);
  });
});
