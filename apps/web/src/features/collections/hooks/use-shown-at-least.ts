import { useEffect, useState } from 'react';

/**
 * True while `active`, and for at least `minMs` from when it became active: a quick refetch still
 * shows its notice long enough to be read rather than flashing.
 */
export function useShownAtLeast(active: boolean, minMs: number): boolean {
  const [previous, setPrevious] = useState(active);
  const [holding, setHolding] = useState(active);
  // Adjusted while rendering (not in an effect) so the notice appears in the same frame.
  if (active !== previous) {
    setPrevious(active);
    if (active) setHolding(true);
  }
  useEffect(() => {
    if (!holding) return;
    const timer = setTimeout(() => setHolding(false), minMs);
    return () => clearTimeout(timer);
  }, [holding, minMs]);
  return active || holding;
}
