import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import { StatusPage } from './status-page';

const fetchMock = vi.fn<typeof fetch>();
const TIMESTAMP = '2025-03-05T10:20:30.000Z';

function statusResponse(
  status: 'ok' | 'degraded',
  message: string,
  problems?: ('database' | 'storage')[],
): Response {
  return new Response(JSON.stringify({ status, message, problems, timestamp: TIMESTAMP }), {
    status: 200,
  });
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <StatusPage />
    </QueryClientProvider>,
  );
}

describe('StatusPage', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    await i18n.changeLanguage('en');
  });

  it('shows the status, the message and the time in the UI language', async () => {
    fetchMock.mockResolvedValue(statusResponse('ok', 'All good'));
    renderPage();

    expect(await screen.findByText('OK')).toBeTruthy();
    expect(screen.getByText('All systems operational.')).toBeTruthy();
    const time = screen.getByText((_, element) => element?.tagName === 'TIME');
    expect(time.getAttribute('datetime')).toBe(TIMESTAMP);
    expect(time.textContent).toContain('March');
    expect(fetchMock).toHaveBeenCalledWith('/api/status', expect.anything());
  });

  it('refetches on refresh', async () => {
    fetchMock.mockResolvedValueOnce(statusResponse('ok', 'First answer'));
    fetchMock.mockResolvedValueOnce(statusResponse('degraded', 'storage unavailable', ['storage']));
    renderPage();
    await screen.findByText('All systems operational.');

    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Services unavailable: file storage.')).toBeTruthy();
    expect(screen.getByText('Degraded')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("words the message in the UI language from the status, never the server's English", async () => {
    await i18n.changeLanguage('it');
    fetchMock.mockResolvedValueOnce(
      statusResponse('degraded', 'database unavailable; storage unavailable', [
        'database',
        'storage',
      ]),
    );
    fetchMock.mockResolvedValueOnce(statusResponse('degraded', 'something failed'));
    fetchMock.mockResolvedValueOnce(statusResponse('ok', 'All systems operational'));
    renderPage();
    expect(
      await screen.findByText('Servizi non disponibili: database e archivio dei file.'),
    ).toBeTruthy();
    expect(screen.queryByText(/unavailable/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Aggiorna' }));
    expect(await screen.findByText('Alcuni servizi non sono disponibili.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Aggiorna' }));
    expect(await screen.findByText('Tutti i sistemi funzionano.')).toBeTruthy();
    expect(screen.queryByText('All systems operational')).toBeNull();
  });

  it('shows the translated error when the API cannot be reached', async () => {
    await i18n.changeLanguage('it');
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderPage();

    expect(await screen.findByText('Impossibile connettersi al server')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Stato del backend' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('it');
  });
});
