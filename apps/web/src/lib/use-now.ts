import { useEffect, useState } from 'react';

const MINUTE = 60_000;

/**
 * The current time, renewed every minute: what depends on it (an invitation turning expired)
 * changes on screen without a reload, and rendering stays pure.
 */
export function useNow(intervalMs: number = MINUTE): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
