import { onlineManager } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../lib/api-client';
import { reportReachability } from '../../../lib/reachability';
import { REACHABILITY_PROBE_MS, useOnlineStatus, useReachabilityWatch } from './use-online-status';
import { z } from 'zod';

const fetchMock = vi.fn<typeof fetch>();

describe('useOnlineStatus with the reachability watch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockReset();
  });
  afterEach(() => {
    reportReachability(true);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('counts a request that got no answer as offline and probes until the server answers', async () => {
    const { result } = renderHook(() => {
      useReachabilityWatch();
      return useOnlineStatus();
    });
    expect(result.current).toBe(true);
    expect(onlineManager.isOnline()).toBe(true);

    // navigator.onLine stays true: only the failed request says the server is out of reach.
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await act(async () => {
      await apiRequest('/teams', { schema: z.unknown() }).catch(() => undefined);
    });
    expect(result.current).toBe(false);
    expect(onlineManager.isOnline()).toBe(false);

    // The first probe fails too: still offline, and another one is planned.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(REACHABILITY_PROBE_MS);
    });
    expect(fetchMock).toHaveBeenLastCalledWith(expect.stringMatching(/\/status$/), {
      cache: 'no-store',
    });
    expect(result.current).toBe(false);

    fetchMock.mockResolvedValue(new Response('{}', { status: 200 }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(REACHABILITY_PROBE_MS);
    });
    expect(result.current).toBe(true);
    expect(onlineManager.isOnline()).toBe(true);
    const calls = fetchMock.mock.calls.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(REACHABILITY_PROBE_MS * 3);
    });
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('counts any answer, an error status too, as reachable', async () => {
    const { result } = renderHook(() => useOnlineStatus());
    act(() => reportReachability(false));
    expect(result.current).toBe(false);
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ statusCode: 404, errorCode: 'notFound', message: 'x' }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    await act(async () => {
      await apiRequest('/teams/x', { schema: z.unknown() }).catch(() => undefined);
    });
    expect(result.current).toBe(true);
  });
});
