import { useRef, type TouchEvent } from 'react';

/** How far a finger must travel sideways, and how much more sideways than up or down. */
export const SWIPE_MIN_PX = 48;
const SWIPE_RATIO = 1.5;

/**
 * A horizontal swipe of one finger: `onSwipe('left')` when it moved right-to-left (the next
 * file), `'right'` for the previous. Two fingers (a pinch) and mostly vertical moves are ignored.
 */
export function useSwipe(onSwipe: (direction: 'left' | 'right') => void) {
  const start = useRef<{ x: number; y: number } | null>(null);
  return {
    onTouchStart: (event: TouchEvent) => {
      const touch = event.touches[0];
      start.current =
        event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
    },
    onTouchEnd: (event: TouchEvent) => {
      const from = start.current;
      const touch = event.changedTouches[0];
      start.current = null;
      if (from === null || touch === undefined) return;
      const dx = touch.clientX - from.x;
      const dy = touch.clientY - from.y;
      if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < Math.abs(dy) * SWIPE_RATIO) return;
      onSwipe(dx < 0 ? 'left' : 'right');
    },
    onTouchCancel: () => {
      start.current = null;
    },
  };
}
