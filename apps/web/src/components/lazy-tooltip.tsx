import type MuiTooltip from '@mui/material/Tooltip';
import {
  cloneElement,
  useState,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
} from 'react';

let Tooltip: typeof MuiTooltip | null = null;

function loadTooltip(): Promise<void> {
  return import('@mui/material/Tooltip').then((module) => {
    Tooltip = module.default;
  });
}

interface TriggerProps {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  autoFocus?: boolean;
}

/** `element.matches(selector)`, true where the engine does not know the selector. */
function matches(element: Element, selector: string): boolean {
  try {
    return element.matches(selector);
  } catch {
    return true;
  }
}

/**
 * MUI's Tooltip, downloaded (with its positioning engine) when the pointer first comes over the
 * control or the keyboard first focuses it, and shown from then on: the header's buttons and the
 * consent button are on every page, a visitor's first one included, and most people never hover
 * them. The control keeps its own `aria-label` as its accessible name; the tooltip shows it. The
 * control is mounted anew inside the tooltip once it has arrived, so focus is given back to it.
 */
export function LazyTooltip({
  title,
  children,
}: {
  title: string;
  children: ReactElement<TriggerProps>;
}) {
  // Null until the tooltip has arrived; a control mounted after that gets it at once.
  const [state, setState] = useState<{ open: boolean; refocus: boolean } | null>(() =>
    Tooltip === null ? null : { open: false, refocus: false },
  );
  if (state === null || Tooltip === null) {
    const wake = (control: HTMLElement, show: boolean) => {
      const swap = () => {
        // Shown only if the pointer or the focus is still on the control by now.
        const focused = control === document.activeElement;
        setState({ open: show && (focused || matches(control, ':hover')), refocus: focused });
      };
      void loadTooltip().then(
        () => {
          // Mid-press, the control is swapped after the release, so the click still lands on it.
          if (matches(control, ':active')) {
            window.addEventListener('pointerup', () => setTimeout(swap), { once: true });
          } else {
            swap();
          }
        },
        // Offline: the control works without its tooltip.
        () => undefined,
      );
    };
    return cloneElement(children, {
      onPointerEnter: (event) => {
        children.props.onPointerEnter?.(event);
        // A touch has no hover; a tooltip there would only cover the control.
        if (event.pointerType === 'mouse') wake(event.currentTarget, true);
      },
      onFocus: (event) => {
        children.props.onFocus?.(event);
        wake(event.currentTarget, matches(event.currentTarget, ':focus-visible'));
      },
    });
  }
  const { open, refocus } = state;
  return (
    <Tooltip
      title={title}
      open={open}
      onOpen={() => setState({ open: true, refocus: false })}
      onClose={() => setState({ open: false, refocus: false })}
    >
      {refocus ? cloneElement(children, { autoFocus: true }) : children}
    </Tooltip>
  );
}
