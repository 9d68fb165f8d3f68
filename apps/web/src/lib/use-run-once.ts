import { useEffect, useRef } from 'react';

/**
 * Runs `task` once after the first render. React 19's StrictMode mounts, unmounts and mounts
 * again in development, running effects twice on the same component; the ref survives that, so
 * a one-time POST (verify a code, redeem an OAuth code) is not sent twice.
 */
export function useRunOnce(task: () => void): void {
  const done = useRef(false);
  const latest = useRef(task);
  useEffect(() => {
    latest.current = task;
  });
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    latest.current();
  }, []);
}
