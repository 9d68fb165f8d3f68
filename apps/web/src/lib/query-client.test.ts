import { onlineManager } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, queryPresets, shouldRetry } from './query-client';

describe('query client defaults', () => {
  it('never retries a 4xx and retries anything else at most twice', () => {
    expect(shouldRetry(0, new ApiError(404, 'notFound'))).toBe(false);
    expect(shouldRetry(0, new ApiError(429, 'tooManyRequests'))).toBe(false);
    expect(shouldRetry(0, new ApiError(500, 'generic'))).toBe(true);
    expect(shouldRetry(1, new ApiError(0, 'noConnection'))).toBe(true);
    expect(shouldRetry(2, new ApiError(0, 'noConnection'))).toBe(false);
    expect(shouldRetry(1, new TypeError('boom'))).toBe(true);
    expect(shouldRetry(2, new TypeError('boom'))).toBe(false);
  });

  it('keeps data fresh for 5 minutes and in memory for 10', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries?.staleTime).toBe(300_000);
    expect(queries?.gcTime).toBe(600_000);
    expect(queries?.retry).toBe(shouldRetry);
  });

  it('has the per-kind presets of spec §7', () => {
    expect(queryPresets.list).toMatchObject({ staleTime: 300_000, gcTime: 900_000 });
    expect(queryPresets.currentUser).toMatchObject({
      staleTime: 1_800_000,
      gcTime: 3_600_000,
      refetchOnWindowFocus: false,
    });
    expect(queryPresets.member).toMatchObject({ staleTime: 600_000, gcTime: 1_800_000 });
    expect(queryPresets.file).toMatchObject({ staleTime: 600_000, gcTime: 1_800_000 });
    expect(queryPresets.teams.staleTime).toBe(600_000);
    expect(queryPresets.downloadLink.staleTime).toBe(600_000);
  });

  it('starts offline when the browser has no connection, so queries wait instead of failing', () => {
    Object.defineProperty(window.navigator, 'onLine', { value: false, configurable: true });
    try {
      createQueryClient();
      expect(onlineManager.isOnline()).toBe(false);
    } finally {
      Object.defineProperty(window.navigator, 'onLine', { value: true, configurable: true });
      onlineManager.setOnline(true);
    }
  });
});
