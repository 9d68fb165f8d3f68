import { decomposeColor, getContrastRatio, recomposeColor } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { createAppTheme } from './theme';

/** `overlay` at `opacity` over the opaque `base`, as the browser paints a translucent tint. */
function over(base: string, overlay: string, opacity: number): string {
  const b = decomposeColor(base).values;
  const o = decomposeColor(overlay);
  const alpha = (o.values[3] ?? 1) * opacity;
  const mixed = [0, 1, 2].map((i) =>
    Math.round(alpha * (o.values[i] ?? 0) + (1 - alpha) * (b[i] ?? 0)),
  );
  return recomposeColor({ type: 'rgb', values: mixed as [number, number, number] });
}

const AA_TEXT = 4.5;

describe.each(['light', 'dark'] as const)('the %s theme', (mode) => {
  const theme = createAppTheme(mode);
  const { palette } = theme;
  const page = palette.background.default;
  const paper = palette.background.paper;

  it('gives filled toasts (alerts) of every severity AA contrast', () => {
    for (const severity of ['info', 'success', 'warning', 'error'] as const) {
      // How MUI's Alert paints its filled variant without CSS variables.
      const colour = palette[severity];
      const background = mode === 'dark' ? colour.dark : colour.main;
      const text = palette.getContrastText(colour.main);
      expect(getContrastRatio(text, background), severity).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('keeps text in primary at AA on hover and selection tints', () => {
    const primary = palette.primary.main;
    const grounds = {
      page,
      paper,
      // A hovered list row (action.hover), e.g. a collection with its "Shared" chip.
      'hovered row': over(paper, palette.action.hover, 1),
      // A hovered outlined or text button: primary at the hover opacity.
      'hovered button': over(paper, primary, palette.action.hoverOpacity),
      // A hovered button on a hovered row.
      'hovered button on a hovered row': over(
        over(paper, palette.action.hover, 1),
        primary,
        palette.action.hoverOpacity,
      ),
      'selected item': over(paper, primary, palette.action.selectedOpacity),
      'focused item': over(paper, primary, palette.action.focusOpacity),
    };
    for (const [what, ground] of Object.entries(grounds)) {
      expect(getContrastRatio(primary, ground), what).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });
});
